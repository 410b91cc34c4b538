/** Where in a user's file a problem is; lines and columns are 1-based. */
export interface Location {
  file: string;
  line?: number;
  column?: number;
}

/**
 * A problem the user caused and can fix: bad flags, names, type files or cluster state.
 * The CLI prints it as one line (compiler-style when it has a location) and exits 1;
 * anything else is a bug and keeps its stack trace.
 */
export class UserError extends Error {
  override readonly name = 'UserError';

  constructor(
    message: string,
    readonly location?: Location,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Several user errors found in one pass, all reported at once (e.g. by `manifests`). */
export class UserErrors extends Error {
  override readonly name = 'UserErrors';

  constructor(readonly errors: readonly UserError[]) {
    super(errors.map(formatUserError).join('\n'));
  }
}

/** `path:line:col: error: message (hint)` — the shape editors and CI annotators parse. */
export function formatUserError(error: UserError): string {
  return formatProblem(error, 'error');
}

/** {@link formatUserError} for a problem that does not stop the command: `path:line:col: warning: …`. */
export function formatUserWarning(error: UserError): string {
  return formatProblem(error, 'warning');
}

function formatProblem(error: UserError, severity: 'error' | 'warning'): string {
  const hint = error.hint ? ` (${error.hint})` : '';
  const loc = error.location;
  if (!loc) return `${severity}: ${error.message}${hint}`;
  const where = [loc.file, loc.line, loc.column].filter((part) => part !== undefined).join(':');
  return `${where}: ${severity}: ${error.message}${hint}`;
}
