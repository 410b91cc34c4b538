import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../src/validation/pattern.js';

function matches(pattern: string, value: string): boolean {
  const compiled = compilePattern(pattern);
  if ('invalid' in compiled) throw new Error(`invalid: ${compiled.invalid}`);
  return compiled.re2.matches(value);
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
    ['(?=x)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['a(?<!b)', 'error parsing regexp: invalid named capture: `(?<!b)`'],
    ['(?>a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?>`'],
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['\\8', 'error parsing regexp: invalid escape sequence: `\\8`'],
    ['\\e', 'error parsing regexp: invalid escape sequence: `\\e`'],
    ['[[:alphabet:]]', 'error parsing regexp: invalid character class range: `[:alphabet:]`'],
    ['a\\', 'error parsing regexp: trailing backslash at end of expression: ``'],
    ['(a', 'error parsing regexp: missing closing ): `(a`'],
    ['a{2,1}', 'error parsing regexp: invalid repeat count: `{2,1}`'],
  ])('rejects %s as invalid RE2, in Go\'s words', (pattern, message) => {
    expect(compilePattern(pattern)).toEqual({ invalid: message });
  });

  it('evaluates valid RE2 that has no JavaScript spelling, and gives the sample generator none', () => {
    expect(matches('^a(?i:b)c$', 'aBc')).toBe(true);
    expect(matches('^a(?i:b)c$', 'ABc')).toBe(false);
    expect(matches('^\\Qa.b\\E$', 'a.b')).toBe(true);
    expect(matches('^\\Qa.b\\E$', 'axb')).toBe(false);
    expect(compilePattern('\\Qa.b\\E')).toMatchObject({ regex: undefined });
  });
});
