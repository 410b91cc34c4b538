import type { Quantity } from '../api/index.js';

/** A quantity as an exact fraction, so `1Ei`, `0.1` and `100m` compare without rounding. */
interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

const decimalSI: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySI: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
// The API server's grammar: a signed decimal, then a binary or decimal SI suffix or an exponent.
const grammar = /^([+-]?)(\d*)(?:\.(\d*))?(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$/;

function fraction(quantity: Quantity): Fraction {
  const text = String(quantity).trim();
  const match = grammar.exec(text);
  const [, sign = '', whole = '', decimals = '', suffix = '', exponent] = match ?? [];
  if (!match || (whole === '' && decimals === '')) throw new Error(`"${text}" is not a quantity, such as 10Gi, 500m or 1e3`);
  let numerator = BigInt(`${sign}${whole}${decimals}` || '0');
  let denominator = 10n ** BigInt(decimals.length);
  const power = exponent !== undefined ? Number(exponent) : decimalSI[suffix];
  if (suffix in binarySI) numerator *= 2n ** BigInt(binarySI[suffix]!);
  else if (power! >= 0) numerator *= 10n ** BigInt(power!);
  else denominator *= 10n ** BigInt(-power!);
  return { numerator, denominator };
}

/**
 * Compares two Kubernetes quantities as the API server does, whatever their units:
 * negative when `a < b`, 0 when equal, positive when `a > b`. Exact, like Go's
 * `resource.Quantity.Cmp`. Throws on text that is not a quantity.
 *
 * @example
 * compareQuantities('1Gi', '1100M') < 0      // 1073741824 < 1100000000
 * compareQuantities('1.5Gi', '1536Mi') === 0
 */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const x = fraction(a);
  const y = fraction(b);
  const left = x.numerator * y.denominator;
  const right = y.numerator * x.denominator;
  return left === right ? 0 : left < right ? -1 : 1;
}
