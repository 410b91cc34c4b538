import { UserError, type Location } from '../errors.js';
import { type MarkerDef, type ValueType, canonicalName, markerDefs } from './registry.js';
import { ScanError, Scanner } from './scanner.js';
import { closest } from './suggest.js';

/** One marker as written in a comment, read and checked against its definition. */
export interface Marker {
  /** The name as defined, e.g. `k8s:optional`. */
  name: string;
  /** The name after aliases, e.g. `kubebuilder:validation:Optional` for `+optional`. */
  canonical: string;
  def: MarkerDef;
  /**
   * The value: `true` for a marker without one, the typed value for `+name=value`, an
   * object of typed arguments for `+name:key=value,…`.
   */
  value: unknown;
  /** The text as written, e.g. `+kubebuilder:validation:Minimum=1` or `@minimum 1`. */
  text: string;
  location: Location;
}

const names = [...markerDefs.keys()];

/**
 * Finds the definition a marker's text starts with, the longest such name: the name ends
 * at the first `=`, or at a `:` that starts the arguments, so try each shorter prefix.
 */
export function findMarkerDef(text: string): MarkerDef | undefined {
  const head = text.split('=', 1)[0]!;
  for (let end = head.length; end > 0; end = head.lastIndexOf(':', end - 1)) {
    const def = markerDefs.get(head.slice(0, end));
    if (def) return def;
  }
  return undefined;
}

/** The nearest known name to an unknown marker, trying each `:`-separated prefix of what was written. */
export function suggestMarker(text: string): string | undefined {
  const written = text.split('=')[0]!;
  const segments = written.split(':');
  for (let n = segments.length; n > 0; n--) {
    const hit = closest(segments.slice(0, n).join(':'), names);
    if (hit) return hit;
  }
  // `+kubebuilder:Minimum` or `+Minimum`: the last word names the marker.
  const last = segments[segments.length - 1]!.toLowerCase();
  return (
    names.find((n) => n.toLowerCase() === `kubebuilder:validation:${last}`) ??
    names.find((n) => n.split(':').pop()!.toLowerCase() === last)
  );
}

/**
 * Reads one marker. `text` starts after the `+`; `location` is where the `+` is.
 * Throws a located UserError for unknown, misspelt and malformed markers.
 */
export function parseMarker(text: string, location: Location): Marker {
  const def = findMarkerDef(text);
  const at = (offset: number): Location => ({ ...location, column: (location.column ?? 1) + 1 + offset });
  if (!def) {
    const suggestion = suggestMarker(text);
    const wrongCase = suggestion && text.toLowerCase().startsWith(suggestion.toLowerCase());
    throw new UserError(
      `unknown marker +${text.split('=')[0]}`,
      location,
      suggestion
        ? `did you mean +${suggestion}?${wrongCase ? ' marker names are case-sensitive' : ''}`
        : 'see the marker list in the opgen docs; markers of other tools belong outside src/api',
    );
  }
  const rest = text.slice(def.name.length);
  try {
    const value = readValue(def, rest, def.name.length);
    return { name: def.name, canonical: canonicalName[def.name] ?? def.name, def, value, text: `+${text}`, location };
  } catch (error) {
    if (error instanceof ScanError) {
      throw new UserError(`malformed marker +${text}: ${error.message}`, at(error.offset), usage(def));
    }
    if (error instanceof UserError) throw new UserError(error.message, at(0), error.hint);
    throw error;
  }
}

function readValue(def: MarkerDef, rest: string, base: number): unknown {
  // Other tools' markers (`+kubebuilder:scaffold:imports`) are theirs to read.
  if (def.ignored) return rest;
  if (def.args) {
    if (rest === '') {
      const missing = Object.entries(def.args).filter(([, a]) => !a.optional);
      if (missing.length) throw new ScanError(`missing ${missing.map(([k]) => k).join(', ')}`, base);
      return {};
    }
    if (rest[0] !== ':') throw new ScanError('expected ":" and key=value arguments', base);
    return readArgs(def, new Scanner(rest, base).withStart(1));
  }
  if (def.value) {
    if (rest === '') {
      if (def.value === 'bool') return true;
      throw new ScanError(`needs a value (+${def.name}=…)`, base);
    }
    // controller-gen splits the name at the first "=" and drops a trailing ":" from it, so
    // `+kubebuilder:default:=Allow` is `+kubebuilder:default=Allow`.
    const equals = rest.startsWith(':=') ? 2 : 1;
    if (rest[equals - 1] !== '=') throw new ScanError('expected "=" and a value', base);
    const scanner = new Scanner(rest, base).withStart(equals);
    const value = scanner.value(def.value, false);
    scanner.skipSpace();
    if (!scanner.done) scanner.fail(`unexpected "${rest.slice(scanner.pos)}" after the value`);
    return value;
  }
  if (rest !== '') throw new ScanError('takes no value', base);
  return true;
}

function readArgs(def: MarkerDef, scanner: Scanner): Record<string, unknown> {
  const args = def.args!;
  const out: Record<string, unknown> = {};
  for (;;) {
    scanner.skipSpace();
    const start = scanner.pos;
    const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(scanner.text.slice(scanner.pos));
    if (!match) scanner.fail('expected an argument name');
    const key = match[0];
    scanner.pos += key.length;
    const arg = args[key];
    if (!arg) {
      const suggestion = closest(key, Object.keys(args));
      scanner.fail(
        `unknown argument "${key}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; known: ${Object.keys(args).join(', ')}`,
        start,
      );
    }
    if (key in out) scanner.fail(`argument "${key}" given twice`, start);
    scanner.skipSpace();
    if (scanner.peek() === '=') {
      scanner.pos++;
      out[key] = scanner.value(arg.type, true);
    } else if (arg.type === 'bool') {
      out[key] = true;
    } else {
      scanner.fail(`expected "=" after "${key}"`);
    }
    scanner.skipSpace();
    if (scanner.done) break;
    if (scanner.peek() !== ',') scanner.fail(`expected "," between arguments, found "${scanner.peek()}"`);
    scanner.pos++;
  }
  const missing = Object.entries(args).filter(([k, a]) => !a.optional && !(k in out));
  if (missing.length) scanner.fail(`missing ${missing.map(([k]) => k).join(', ')}`, 0);
  return out;
}

const example: Record<ValueType, string> = {
  string: '<text>',
  int: '<integer>',
  number: '<number>',
  bool: 'true',
  stringList: 'a;b',
  any: '<value>',
  anyList: 'a;b',
  json: '<JSON>',
  jsonArg: '<JSON>',
};

/** How the marker is written, for hints. */
export function usage(def: MarkerDef): string {
  if (def.args) {
    const entries = Object.entries(def.args);
    const required = entries.filter(([, a]) => !a.optional).map(([k, a]) => `${k}=${example[a.type]}`);
    const optional = entries.filter(([, a]) => a.optional).map(([k, a]) => `[,${k}=${example[a.type]}]`);
    return `write it as +${def.name}:${[required.join(','), ...optional].join('')}`;
  }
  if (def.value) return `write it as +${def.name}=${example[def.value]}`;
  return `write it as +${def.name}`;
}
