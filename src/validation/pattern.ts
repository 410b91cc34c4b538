/**
 * The API server evaluates `pattern` with Go's RE2. This module decides whether a pattern
 * is valid RE2 and translates the common RE2 spellings JavaScript lacks, so that patterns
 * can be tested against values here.
 */

export type CompiledPattern =
  | { regex: RegExp }
  /** Not valid RE2: the API server rejects the schema. */
  | { invalid: string }
  /** Valid RE2 using a feature that has no JavaScript equivalent here; cannot be tested. */
  | { untestable: string };

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

// Letters RE2 gives a meaning after a backslash; any other letter is an invalid escape.
const re2EscapeLetters = new Set([...'aftnrvdDsSwWbBAzpPQECx']);

const cache = new Map<string, CompiledPattern>();

/** Compiles an OpenAPI `pattern` with RE2's semantics (memoized). */
export function compilePattern(pattern: string): CompiledPattern {
  let compiled = cache.get(pattern);
  if (!compiled) {
    compiled = compile(pattern);
    cache.set(pattern, compiled);
  }
  return compiled;
}

function compile(pattern: string): CompiledPattern {
  const flagsMatch = /^\(\?([imsU]+)\)/.exec(pattern);
  let flags = '';
  let body = pattern;
  if (flagsMatch) {
    const letters = flagsMatch[1] as string;
    if (letters.includes('U')) return { untestable: 'the ungreedy flag (?U)' };
    flags = [...new Set(letters)].join('');
    body = pattern.slice(flagsMatch[0].length);
  }
  if (/\(\?(=|!|<=|<!)/.test(body)) return { invalid: 'lookaround assertions such as (?=...) are not supported by RE2' };
  if (/\(\?>/.test(body)) return { invalid: 'atomic groups (?>...) are not supported by RE2' };
  if (/\(\?[imsU-]+[:)]/.test(body)) return { untestable: 'inline flag groups' };
  if (/\\Q|\\C/.test(body)) return { untestable: '\\Q...\\E quoting' };

  let translated = '';
  let unicode = false;
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\\') {
      const next = body[i + 1];
      if (next === undefined) return { invalid: 'trailing backslash' };
      // \1-\7 followed by an octal digit is an octal escape; any other digit escape is a backreference.
      if (/[1-9]/.test(next) && !(next <= '7' && /[0-7]/.test(body[i + 2] ?? ''))) {
        return { invalid: `backreferences such as \\${next} are not supported by RE2` };
      }
      if (/[a-zA-Z]/.test(next) && !re2EscapeLetters.has(next)) return { invalid: `invalid escape sequence \\${next}` };
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
        if (chars === undefined) return { invalid: `invalid character class [:${name}:]` };
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
      return { regex: new RegExp(translated, flags + extra) };
    } catch {
      // JavaScript's unicode mode rejects identity escapes RE2 allows; retry without it.
    }
  }
  try {
    new RegExp(translated, flags);
  } catch (error) {
    return { invalid: (error as Error).message.replace(/^Invalid regular expression: /, '') };
  }
  return { untestable: 'a construct JavaScript cannot evaluate' };
}
