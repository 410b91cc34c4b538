import { InvalidArgumentError } from 'commander';

/** The value of a kubebuilder-style boolean flag: `--flag`, `--flag=true`, `--flag=false`. */
export function parseBool(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('expected true or false');
}
