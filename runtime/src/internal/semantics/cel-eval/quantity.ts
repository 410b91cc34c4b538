/**
 * Kubernetes resource quantities (`500m`, `1Gi`, `2e3`) as exact fractions, for the CEL
 * quantity library: enough to compare and add them, not to print them canonically.
 *
 * @module
 */

export interface Quantity {
  numerator: bigint;
  denominator: bigint;
}

const binary: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const decimal: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** The quantity `text` denotes, or undefined when the API server would not parse it. */
export function parseQuantity(text: string): Quantity | undefined {
  const match = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return undefined;
  const [, sign, digits, suffix, exponent] = match;
  const [whole, fraction = ''] = digits!.split('.');
  let numerator = BigInt(`${whole || '0'}${fraction}`) * (sign === '-' ? -1n : 1n);
  let denominator = 10n ** BigInt(fraction.length);
  if (suffix && binary[suffix]) numerator *= binary[suffix];
  else {
    const power = suffix !== undefined ? decimal[suffix]! : exponent !== undefined ? Number(exponent) : 0;
    if (power >= 0) numerator *= 10n ** BigInt(power);
    else denominator *= 10n ** BigInt(-power);
  }
  return reduce({ numerator, denominator });
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduce(q: Quantity): Quantity {
  const divisor = gcd(q.numerator, q.denominator) || 1n;
  return { numerator: q.numerator / divisor, denominator: q.denominator / divisor };
}
