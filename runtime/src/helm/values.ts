/** A chart's values: plain JSON data, as the CR's spec is. */
export type Values = Record<string, unknown>;

/**
 * The values a release renders with: the CR's spec, then each override on top, as
 * operator-sdk's helm operator does (overrideValues win over the spec, so an operator's
 * admin can pin what users may not change). Override keys are helm `--set` paths
 * (`image.repository`; `\.` keeps a literal dot) and their values may name environment
 * variables (`$IMAGE` or `${IMAGE}`), expanded from the operator's environment; after that,
 * `true`, `false`, `null` and integers take their type, as with `helm --set`.
 */
export function releaseValues(spec: unknown, overrides: Record<string, string> = {}, env: NodeJS.ProcessEnv = process.env): Values {
  const values = isPlainObject(spec) ? structuredClone(spec) : {};
  for (const [path, value] of Object.entries(overrides)) setPath(values, splitPath(path), typed(expandEnv(value, env)));
  return values;
}

/** `a.b\.c` → `['a', 'b.c']`. */
function splitPath(path: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const char = path[i]!;
    if (char === '\\' && path[i + 1] === '.') {
      current += '.';
      i++;
    } else if (char === '.') {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

function setPath(values: Values, path: string[], value: unknown): void {
  let node = values;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (!isPlainObject(next)) node[key] = {};
    node = node[key] as Values;
  }
  node[path[path.length - 1]!] = value;
}

/** A `--set` value as helm types it: `true`/`false`, integers and `null` are not strings. */
function typed(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?(0|[1-9][0-9]*)$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  return value;
}

/** Go's os.ExpandEnv, which operator-sdk applies to override values: unset variables become ''. */
export function expandEnv(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced: string | undefined, bare: string | undefined) => env[braced ?? bare!] ?? '');
}

function isPlainObject(value: unknown): value is Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
