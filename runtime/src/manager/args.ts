import { parseArgs } from 'node:util';
import { isLogLevel } from '../log/index.js';
import { parseBindAddress } from './bind-address.js';
import type { ManagerOptions } from './options.js';

/** The flags of {@link managerOptionsFromArgs}, with kubebuilder's names and defaults. */
const FLAGS = {
  'metrics-bind-address': { type: 'string', default: '0' },
  'health-probe-bind-address': { type: 'string', default: ':8081' },
  'leader-elect': { type: 'boolean', default: false },
  namespace: { type: 'string' },
  kubeconfig: { type: 'string' },
  'log-format': { type: 'string' },
  'log-level': { type: 'string' },
} as const;

/**
 * Go's flag syntax, which kubebuilder users' manifests carry, in parseArgs' terms:
 * `-flag` means `--flag`, and a boolean may be written `--flag=true` / `--flag=false`.
 */
function normalize(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of argv) {
    const arg = /^-[^-]{2,}/.test(raw) ? `-${raw}` : raw;
    const bool = /^--([^=]+)=(true|false)$/.exec(arg);
    if (bool && FLAGS[bool[1] as keyof typeof FLAGS]?.type === 'boolean') {
      if (bool[2] === 'true') out.push(`--${bool[1]}`);
      continue;
    }
    out.push(arg);
  }
  return out;
}

/**
 * Reads a kubebuilder-style manager's flags: `--metrics-bind-address` (default `0`, off),
 * `--health-probe-bind-address` (default `:8081`), `--leader-elect`, `--namespace`,
 * `--kubeconfig`, `--log-format json|pretty` and `--log-level`. `--flag value`,
 * `--flag=value`, Go's `-flag` and `--leader-elect=false` all work. Throws a one-line error on an unknown flag or a bad value.
 *
 * @example
 * const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)), leaderElectionId: 'abc123.example.com' });
 */
export function managerOptionsFromArgs(argv: readonly string[] = process.argv.slice(2)): ManagerOptions {
  let values;
  try {
    ({ values } = parseArgs({ args: normalize(argv), options: FLAGS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new Error(`${(error as Error).message.split('\n')[0]} (flags: ${Object.keys(FLAGS).map((f) => `--${f}`).join(', ')})`);
  }
  parseBindAddress(values['metrics-bind-address']);
  parseBindAddress(values['health-probe-bind-address']);
  const options: ManagerOptions = {
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    leaderElection: values['leader-elect'],
  };
  if (values.namespace) options.namespace = values.namespace;
  if (values.kubeconfig) options.kubeconfigPath = values.kubeconfig;
  const format = values['log-format'];
  if (format !== undefined) {
    if (format !== 'json' && format !== 'pretty') throw new Error(`--log-format must be json or pretty, not "${format}"`);
    options.logFormat = format;
  }
  const level = values['log-level'];
  if (level !== undefined) {
    if (!isLogLevel(level)) throw new Error(`--log-level must be one of trace, debug, info, warn, error, fatal, silent, not "${level}"`);
    options.logLevel = level;
  }
  return options;
}
