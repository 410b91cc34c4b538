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

/** How a quantity was written, which its canonical form keeps (Go's `resource.Format`). */
type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

function parse(quantity: Quantity): Fraction & { format: Format } {
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
  const format: Format = suffix in binarySI ? 'BinarySI' : exponent !== undefined ? 'DecimalExponent' : 'DecimalSI';
  return { numerator, denominator, format };
}

function fraction(quantity: Quantity): Fraction {
  const { numerator, denominator } = parse(quantity);
  return { numerator, denominator };
}

const NANO = 10n ** 9n;
const decimalSuffix: Record<number, string> = Object.fromEntries(Object.entries(decimalSI).map(([suffix, power]) => [power, suffix]));

/**
 * The form the API server stores a quantity in (Go's `Quantity.String()` after
 * `ParseQuantity`): rounded up to nano units, written in its own family of units (binary
 * SI, decimal SI or exponent) with the largest unit that keeps an integer: `2.5` is `2500m`,
 * `1024Mi` is `1Gi`, `0.5Gi` is `512Mi`. A binary quantity under 1024, or not a whole
 * number, is written in decimal SI. Throws on text that is not a quantity.
 *
 * @example
 * canonicalQuantity(2.5) === '2500m'
 * canonicalQuantity('1536Mi') === '1536Mi'
 */
export function canonicalQuantity(quantity: Quantity | number): string {
  const { numerator, denominator, format } = parse(String(quantity) as Quantity);
  const scaled = numerator * NANO;
  const away = scaled % denominator === 0n ? 0n : numerator < 0n ? -1n : 1n;
  const nanos = scaled / denominator + away;
  if (nanos === 0n) return '0';
  const sign = nanos < 0n ? '-' : '';
  const magnitude = nanos < 0n ? -nanos : nanos;
  if (format === 'BinarySI' && magnitude >= 1024n * NANO && magnitude % NANO === 0n) {
    let units = magnitude / NANO;
    let power = 0;
    while (power < 6 && units % 1024n === 0n) {
      units /= 1024n;
      power++;
    }
    return `${sign}${units}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][power]}`;
  }
  let mantissa = magnitude;
  let power = -9;
  while (mantissa % 1000n === 0n && (format === 'DecimalExponent' || power < 18)) {
    mantissa /= 1000n;
    power += 3;
  }
  const suffix = format === 'DecimalExponent' ? (power === 0 ? '' : `e${power}`) : decimalSuffix[power]!;
  return `${sign}${mantissa}${suffix}`;
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
