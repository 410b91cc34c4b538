import { compileRe2, type Re2 } from '@opgen/runtime/internal/cel';

/**
 * An OpenAPI `pattern`, as the API server reads it: Go's RE2 decides whether it is valid and
 * what it matches (the one home of those rules is the runtime's internal/cel, shared with the
 * memory cluster). The sample generator also wants a JavaScript spelling of the pattern to
 * build a matching string from; this module translates the common RE2 spellings JavaScript
 * lacks for it.
 */

export type CompiledPattern =
  /** Valid RE2; `regex` the JavaScript spelling when there is one, for the sample generator. */
  | { re2: Re2; regex?: RegExp }
  /** Not valid RE2: the API server rejects the schema (Go's message). */
  | { invalid: string };

const posixClasses: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-/:-@[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const cache = new Map<string, CompiledPattern>();

/** Compiles an OpenAPI `pattern` with RE2's semantics (memoized). */
export function compilePattern(pattern: string): CompiledPattern {
  let compiled = cache.get(pattern);
  if (!compiled) {
    const re2 = compileRe2(pattern);
    compiled = 'error' in re2 ? { invalid: re2.error } : { re2, regex: javaScriptSpelling(pattern) };
    cache.set(pattern, compiled);
  }
  return compiled;
}

/** The JavaScript spelling of a valid RE2 pattern, undefined when it has none here. */
function javaScriptSpelling(pattern: string): RegExp | undefined {
  const flagsMatch = /^\(\?([imsU]+)\)/.exec(pattern);
  let flags = '';
  let body = pattern;
  if (flagsMatch) {
    const letters = flagsMatch[1] as string;
    if (letters.includes('U')) return undefined;
    flags = [...new Set(letters)].join('');
    body = pattern.slice(flagsMatch[0].length);
  }
  // Inline flag groups and \Q…\E quoting have no JavaScript spelling.
  if (/\(\?[imsU-]+[:)]/.test(body) || /\\Q|\\C/.test(body)) return undefined;

  let translated = '';
  let unicode = false;
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\\') {
      // RE2 accepted the pattern: a backslash is never the last character.
      const next = body[i + 1]!;
      if (next === 'z' && !inClass) translated += '(?![\\s\\S])';
      else if (next === 'A' && !inClass) translated += '(?<![\\s\\S])';
      else if ((next === 'p' || next === 'P') && body[i + 2] !== '{') {
        translated += `\\${next}{${body[i + 2] ?? ''}}`;
        i++;
      } else translated += `\\${next}`;
      if (next === 'p' || next === 'P') unicode = true;
      i++;
      continue;
    }
    if (!inClass && c === '[') {
      inClass = true;
      translated += c;
      if (body[i + 1] === '^') translated += body[++i];
      // RE2 reads a ']' right after the opening bracket as a literal.
      if (body[i + 1] === ']') {
        translated += '\\]';
        i++;
      }
      continue;
    }
    if (inClass && c === '[' && body[i + 1] === ':') {
      const end = body.indexOf(':]', i + 2);
      if (end > 0) {
        const name = body.slice(i + 2, end);
        const chars = posixClasses[name];
        if (chars === undefined) return undefined;
        translated += chars;
        i = end + 1;
        continue;
      }
    }
    if (inClass && c === ']') inClass = false;
    translated += c;
  }
  translated = translated.replace(/\(\?P</g, '(?<');
  for (const extra of unicode ? ['u'] : ['u', '']) {
    try {
      return new RegExp(translated, flags + extra);
    } catch {
      // JavaScript's unicode mode rejects identity escapes RE2 allows; retry without it.
    }
  }
  return undefined;
}
