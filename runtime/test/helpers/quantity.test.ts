import { describe, expect, it } from 'vitest';
import { canonicalQuantity, compareQuantities } from '../../src/helpers/quantity.js';

describe('compareQuantities', () => {
  it('orders quantities written in different units', () => {
    expect(compareQuantities('1Gi', '1100M')).toBeLessThan(0);
    expect(compareQuantities('2Gi', '1536Mi')).toBeGreaterThan(0);
    expect(compareQuantities('1.5Gi', '1536Mi')).toBe(0);
    expect(compareQuantities('2e9', '2G')).toBe(0);
    expect(compareQuantities('500m', '0.5')).toBe(0);
    expect(compareQuantities(1024, '1Ki')).toBe(0);
    expect(compareQuantities('-1', '1m')).toBeLessThan(0);
    expect(compareQuantities('100n', '0.1u')).toBe(0);
  });

  it('is exact where doubles are not', () => {
    // 2^60 + 1 and 2^60 are the same double.
    expect(compareQuantities('1152921504606846977', '1Ei')).toBeGreaterThan(0);
    expect(compareQuantities('0.3', '0.1')).toBeGreaterThan(0);
    expect(compareQuantities('300m', '.3')).toBe(0);
  });

  it('rejects what the API server would not take as a quantity', () => {
    for (const bad of ['2GB', '', '.', 'Gi', '1.2.3', '1e', 'ten']) {
      expect(() => compareQuantities(bad, '1'), bad).toThrow(`"${bad}" is not a quantity`);
    }
  });
});

describe('canonicalQuantity', () => {
  it('writes a quantity as the API server stores it, in the units it was written in', () => {
    const stored: Array<[string | number, string]> = [
      [2.5, '2500m'], ['1.5', '1500m'], ['-2.5', '-2500m'], ['0.1', '100m'], ['1000', '1k'], ['1500', '1500'], ['1000k', '1M'], ['0', '0'],
      ['1024Mi', '1Gi'], ['0.5Gi', '512Mi'], ['1536Mi', '1536Mi'], ['100Ki', '100Ki'], ['0.5Ki', '512'], ['1e3', '1e3'],
    ];
    expect(stored.map(([sent]) => canonicalQuantity(sent))).toEqual(stored.map(([, kept]) => kept));
  });

  it('rounds up to nano units, as the API server parses', () => {
    expect(canonicalQuantity('0.0000000001')).toBe('1n');
  });
});
