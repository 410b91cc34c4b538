/**
 * Regular expressions with Go's RE2 semantics, the API server's for OpenAPI `pattern` and for
 * CEL's `matches`, `find` and `findAll`: `(?i)` and the other flags, `\z`, POSIX classes and
 * `\pL` work, and what RE2 refuses (backreferences, lookaround) is refused with Go's message.
 * One home for both the CLI (`opgen manifests`) and the memory cluster, through re2js (a
 * port of RE2 to JavaScript, linear time like Go's).
 *
 * @module
 */
import { RE2JS } from 're2js';

/** A compiled RE2 expression. */
export interface Re2 {
  /** Whether the expression matches anywhere in `text` (Go's `MatchString`, CEL's `matches`). */
  matches(text: string): boolean;
  /** The leftmost match, '' when none (Go's `FindString`, CEL's `find`). */
  find(text: string): string;
  /** Successive non-overlapping matches, at most `limit` when it is not negative (Go's `FindAllString`). */
  findAll(text: string, limit?: number): string[];
}

const compiled = new Map<string, Re2 | { error: string }>();

/**
 * Compiles `pattern` as Go's `regexp.Compile` does (memoized): the expression, or Go's error
 * (`error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``).
 *
 * @example
 * const re = compileRe2('(?i)^[a-z]+$');
 * 'error' in re ? re.error : re.matches('ABC'); // true
 */
export function compileRe2(pattern: string): Re2 | { error: string } {
  let found = compiled.get(pattern);
  if (!found) {
    found = compile(pattern);
    compiled.set(pattern, found);
  }
  return found;
}

function compile(pattern: string): Re2 | { error: string } {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (error) {
    // Go words every parse error `<code>: \`<text>\``; re2js leaves the empty text of this one out.
    return { error: (error as Error).message.replace(/trailing backslash at end of expression$/, '$&: ``') };
  }
  return {
    matches: (text) => re.matcher(text).find(),
    find: (text) => {
      const m = re.matcher(text);
      return m.find() ? (m.group() ?? '') : '';
    },
    findAll: (text, limit = -1) => {
      const out: string[] = [];
      const m = re.matcher(text);
      // Go ignores an empty match that abuts the one before it (`a*` on `baac` finds '', 'aa', '').
      let previousEnd = -1;
      while ((limit < 0 || out.length < limit) && m.find()) {
        if (m.start() === m.end() && m.start() === previousEnd) continue;
        out.push(m.group() ?? '');
        previousEnd = m.end();
      }
      return out;
    },
  };
}
