import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../src/validation/pattern.js';

function matches(pattern: string, value: string): boolean {
  const compiled = compilePattern(pattern);
  if (!('regex' in compiled)) throw new Error(`not testable: ${JSON.stringify(compiled)}`);
  return compiled.regex.test(value);
}

describe('compilePattern', () => {
  it('evaluates ordinary patterns like RE2', () => {
    expect(matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'my-app')).toBe(true);
    expect(matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', '-bad')).toBe(false);
    expect(matches('^\\d+\\.\\-x$', '12.-x')).toBe(true);
  });

  it('translates RE2-only spellings', () => {
    expect(matches('(?i)^abc$', 'ABC')).toBe(true);
    expect(matches('^[[:upper:]][[:digit:]]+$', 'A12')).toBe(true);
    expect(matches('^[^[:space:]]+$', 'a b')).toBe(false);
    expect(matches('\\Aabc\\z', 'abc')).toBe(true);
    expect(matches('\\Aabc\\z', 'abc\n')).toBe(false);
    expect(matches('^(?P<word>\\w+)$', 'hi')).toBe(true);
    expect(matches('^\\pL+$', 'héllo')).toBe(true);
    expect(matches('^[]a]+$', ']a')).toBe(true);
    expect(matches('^\\101$', 'A')).toBe(true);
  });

  it.each([
    ['(?=x)', 'lookaround'],
    ['a(?<!b)', 'lookaround'],
    ['(?>a)', 'atomic'],
    ['(a)\\1', 'backreferences'],
    ['\\8', 'backreferences'],
    ['\\e', 'invalid escape sequence \\e'],
    ['[[:alphabet:]]', 'invalid character class'],
    ['a\\', 'trailing backslash'],
    ['(a', 'Unterminated group'],
    ['a{2,1}', 'numbers out of order'],
  ])('rejects %s as invalid RE2', (pattern, message) => {
    const compiled = compilePattern(pattern);
    expect('invalid' in compiled && compiled.invalid).toContain(message);
  });

  it('does not reject valid RE2 it cannot evaluate', () => {
    expect(compilePattern('a(?i:b)c')).toEqual({ untestable: 'inline flag groups' });
    expect(compilePattern('\\Qa.b\\E')).toHaveProperty('untestable');
  });
});
