/**
 * cel-js built-ins whose meaning differs from cel-go's, the API server's: `matches` compiles a
 * JavaScript regular expression (so `(?i)` is refused and `\z` unknown) where cel-go uses RE2,
 * and the string functions count UTF-16 units where cel-go counts code points (`lowerAscii` also
 * lowers non-ASCII letters). cel-js refuses a second overload of a signature it has, so each is
 * replaced in place: the overload list an expression resolves against is reached through a
 * probe expression's checked AST. cel-js is pinned (8.0.0); a test of each replacement fails if
 * an upgrade moves that list.
 *
 * @module
 */
import type { Environment } from '@marcbachmann/cel-js';
import { compileRe2, type Re2 } from '../../cel/index.js';

/** A cel-js evaluation error: cel-go's message, which the memory cluster reports as it is. */
function failure(message: string): Error {
  return new Error(message);
}

/** The RE2 expression `pattern`, or cel-go's evaluation error. */
export function re2(pattern: string): Re2 {
  const re = compileRe2(pattern);
  if ('error' in re) throw failure(re.error);
  return re;
}

const codePoints = (text: string): string[] => [...text];

function index(text: string, search: string, from: bigint | undefined, last: boolean): bigint {
  const chars = codePoints(text);
  const needle = codePoints(search);
  const start = from === undefined ? (last ? chars.length : 0) : Number(from);
  if (start < 0 || start > chars.length) throw failure(`index out of range: ${start}`);
  if (needle.length === 0) return BigInt(start);
  const fits = (at: number) => needle.every((c, i) => chars[at + i] === c);
  if (last) {
    for (let at = Math.min(start, chars.length - needle.length); at >= 0; at--) if (fits(at)) return BigInt(at);
  } else {
    for (let at = start; at + needle.length <= chars.length; at++) if (fits(at)) return BigInt(at);
  }
  return -1n;
}

function substring(text: string, start: bigint, end?: bigint): string {
  const chars = codePoints(text);
  const to = end === undefined ? chars.length : Number(end);
  if (start < 0n || Number(start) > chars.length) throw failure(`index out of range: ${start}`);
  if (to < Number(start) || to > chars.length) throw failure(end !== undefined && to < Number(start) ? `invalid substring range. start: ${start}, end: ${to}` : `index out of range: ${to}`);
  return chars.slice(Number(start), to).join('');
}

/** Built-in signature → a probe expression resolving to it, and cel-go's meaning. */
const replacements: { signature: string; probe: string; handler: (...args: never[]) => unknown }[] = [
  { signature: 'string.matches(string): bool', probe: "''.matches('')", handler: (text: string, pattern: string) => re2(pattern).matches(text) },
  { signature: 'string.lowerAscii(): string', probe: "''.lowerAscii()", handler: (text: string) => text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) },
  { signature: 'string.upperAscii(): string', probe: "''.upperAscii()", handler: (text: string) => text.replace(/[a-z]+/g, (s) => s.toUpperCase()) },
  { signature: 'string.indexOf(string): int', probe: "''.indexOf('')", handler: (text: string, search: string) => index(text, search, undefined, false) },
  { signature: 'string.indexOf(string, int): int', probe: "''.indexOf('', 0)", handler: (text: string, search: string, from: bigint) => index(text, search, from, false) },
  { signature: 'string.lastIndexOf(string): int', probe: "''.lastIndexOf('')", handler: (text: string, search: string) => index(text, search, undefined, true) },
  { signature: 'string.lastIndexOf(string, int): int', probe: "''.lastIndexOf('', 0)", handler: (text: string, search: string, from: bigint) => index(text, search, from, true) },
  { signature: 'string.substring(int): string', probe: "''.substring(0)", handler: (text: string, start: bigint) => substring(text, start) },
  { signature: 'string.substring(int, int): string', probe: "''.substring(0, 0)", handler: (text: string, start: bigint, end: bigint) => substring(text, start, end) },
];

interface Overloads {
  declarations: object[];
}

/**
 * Replaces, in `env` only, the built-ins above with cel-go's meaning. Call it before parsing
 * anything else in `env` (an expression checked before binds the old handler).
 *
 * @example
 * registerKubernetesLibrary(env);
 * replaceBuiltins(env);
 * env.parse("'ABC'.matches('(?i)^abc$')")(); // true
 */
export function replaceBuiltins(env: Environment): void {
  for (const { signature, probe, handler } of replacements) {
    // Type-checking the probe resolves its call, which records the overload list on its AST.
    const parsed = env.parse(probe);
    parsed.check();
    const overloads = (parsed.ast as unknown as { candidates?: Overloads }).candidates;
    const at = overloads?.declarations.findIndex((d) => (d as { signature?: string }).signature === signature) ?? -1;
    if (!overloads || at < 0) throw new Error(`cel-js changed: no overload ${signature} to replace`);
    const declaration = overloads.declarations[at]!;
    overloads.declarations[at] = Object.freeze(Object.create(Object.getPrototypeOf(declaration) as object, { ...Object.getOwnPropertyDescriptors(declaration), handler: { value: handler, enumerable: true } }) as object);
  }
}
