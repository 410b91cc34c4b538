import { describe, expect, it } from 'vitest';
import { compareQuantities } from '../../src/helpers/quantity.js';

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
