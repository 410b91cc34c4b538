import { UserError } from '../../errors.js';
import type { LocatedDocument } from '../locate.js';

/** One finding of `opgen bundle validate`. */
export interface Finding {
  severity: 'error' | 'warning';
  error: UserError;
}

/** Where a finding is: a document and the data path in it, or just a file or directory. */
type Where = LocatedDocument | string;

/** The findings of one run, and the two ways checks add to them, located by data path. */
export interface Findings {
  readonly list: Finding[];
  error(where: Where, path: readonly (string | number)[], message: string): void;
  warning(where: Where, path: readonly (string | number)[], message: string): void;
}

/** An empty {@link Findings}. */
export function findings(): Findings {
  const list: Finding[] = [];
  const add = (severity: Finding['severity']) => (where: Where, path: readonly (string | number)[], message: string) => {
    const location = typeof where === 'string' ? { file: where } : { file: where.file, line: where.lineOf(path) };
    list.push({ severity, error: new UserError(message, location) });
  };
  return { list, error: add('error'), warning: add('warning') };
}
