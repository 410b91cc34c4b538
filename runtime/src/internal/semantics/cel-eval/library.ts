/**
 * Kubernetes' CEL extension functions (apiserver's `library` package and the cel-go
 * extensions it enables) that cel-js does not have built in, implemented for evaluation.
 * Covered: lists (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`), strings
 * (`charAt`, `replace`, `reverse`), regex with RE2 (`matches(s, re)`, `find`, `findAll`),
 * url (`url`, `isURL` and the getters), ip and cidr (`ip`, `isIP`, `cidr`, `isCIDR`, family, containment, prefix) and
 * quantity (`quantity`, `isQuantity`, comparison, arithmetic with quantities, `asInteger`,
 * `isInteger`, `sign`, `asApproximateFloat`). Not covered: `format`, `strings.quote`,
 * `sets.*`, semver, two-variable comprehensions, `cel.bind`: a rule calling one fails at
 * evaluation with cel-js' "found no matching overload" in its message.
 *
 * @module
 */
import { isIP, isIPv4 } from 'node:net';
import type { Environment } from '@marcbachmann/cel-js';
import { re2 } from './overrides.js';
import { parseQuantity, type Quantity } from './quantity.js';

class CelUrl {
  constructor(readonly url: URL) {}
}
class CelIp {
  constructor(readonly address: string) {}
}
class CelCidr {
  constructor(
    readonly address: string,
    readonly prefix: number,
  ) {}
}
class CelQuantity {
  constructor(readonly quantity: Quantity) {}
}

type Comparable = bigint | number | string | boolean;

function compare(a: Comparable, b: Comparable): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function evaluationFailure(message: string): Error {
  return new Error(message);
}

function toUrl(text: string): URL | undefined {
  // Kubernetes' url() takes absolute URIs and absolute paths, as Go's url.ParseRequestURI.
  try {
    return text.startsWith('/') ? new URL(text, 'http://placeholder') : new URL(text);
  } catch {
    return undefined;
  }
}

function toCidr(text: string): CelCidr | undefined {
  const [address, prefix, ...rest] = text.split('/');
  if (address === undefined || prefix === undefined || rest.length > 0 || !/^\d{1,3}$/.test(prefix) || !isIP(address) || address.includes('%')) return undefined;
  const bits = Number(prefix);
  if (bits > (isIPv4(address) ? 32 : 128)) return undefined;
  return new CelCidr(address, bits);
}

/** The address as a bigint and its width in bits. */
function ipBits(address: string): { value: bigint; width: number } {
  if (isIPv4(address)) return { value: address.split('.').reduce((acc, part) => (acc << 8n) + BigInt(Number(part)), 0n), width: 32 };
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return { value: groups.reduce((acc, group) => (acc << 16n) + BigInt(parseInt(group || '0', 16)), 0n), width: 128 };
}

function contains(cidr: CelCidr, address: string): boolean {
  const net = ipBits(cidr.address);
  const ip = ipBits(address);
  if (net.width !== ip.width) return false;
  const shift = BigInt(net.width - cidr.prefix);
  return net.value >> shift === ip.value >> shift;
}

/** Registers the functions and their types on `env`. */
export function registerKubernetesLibrary(env: Environment): void {
  env.registerType('URL', { ctor: CelUrl });
  env.registerType('net.IP', { ctor: CelIp });
  env.registerType('net.CIDR', { ctor: CelCidr });
  env.registerType('Quantity', { ctor: CelQuantity });

  // has() on a field of a computed value (see has-macro.ts)
  env.registerFunction('__has(dyn, string): bool', (value: unknown, field: string) => {
    if (value instanceof Map) return value.has(field);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return (value as Record<string, unknown>)[field] !== undefined;
    throw evaluationFailure('invalid type for field selection.');
  });

  // lists
  env.registerFunction('list<A>.isSorted(): bool', (list: Comparable[]) => list.every((item, i) => i === 0 || compare(list[i - 1]!, item) <= 0));
  env.registerFunction('list<int>.sum(): int', (list: bigint[]) => list.reduce((a, b) => a + b, 0n));
  env.registerFunction('list<double>.sum(): double', (list: number[]) => list.reduce((a, b) => a + b, 0));
  for (const name of ['min', 'max'] as const) {
    env.registerFunction(`list<A>.${name}(): A`, (list: Comparable[]) => {
      if (list.length === 0) throw evaluationFailure(`${name} called on empty list`);
      return list.reduce((best, item) => (compare(item, best) * (name === 'min' ? -1 : 1) > 0 ? item : best));
    });
  }
  env.registerFunction('list<A>.indexOf(A): int', (list: unknown[], item: unknown) => BigInt(list.findIndex((x) => x === item)));
  env.registerFunction('list<A>.lastIndexOf(A): int', (list: unknown[], item: unknown) => BigInt(list.lastIndexOf(item)));

  // strings
  env.registerFunction('string.charAt(int): string', (text: string, at: bigint) => {
    const chars = [...text];
    if (at < 0n || at > BigInt(chars.length)) throw evaluationFailure(`index out of range: ${at}`);
    return chars[Number(at)] ?? '';
  });
  env.registerFunction('string.replace(string, string): string', (text: string, from: string, to: string) => text.split(from).join(to));
  env.registerFunction('string.replace(string, string, int): string', (text: string, from: string, to: string, n: bigint) => {
    if (n < 0n) return text.split(from).join(to);
    let out = text;
    let at = 0;
    for (let i = 0n; i < n; i++) {
      const found = out.indexOf(from, at);
      if (found < 0) break;
      out = out.slice(0, found) + to + out.slice(found + from.length);
      at = found + to.length;
    }
    return out;
  });
  env.registerFunction('string.reverse(): string', (text: string) => [...text].reverse().join(''));
  // cel-go's string() of a timestamp (RFC 3339, fraction without trailing zeros) and of a duration (seconds).
  env.registerFunction('string(google.protobuf.Timestamp): string', (at: Date) => at.toISOString().replace(/\.?0+Z$/, 'Z'));
  env.registerFunction('string(google.protobuf.Duration): string', (d: { seconds: bigint; nanos: number }) => `${Number(d.seconds) + d.nanos / 1e9}s`);

  // regex
  env.registerFunction('matches(string, string): bool', (text: string, pattern: string) => re2(pattern).matches(text));
  env.registerFunction('string.find(string): string', (text: string, pattern: string) => re2(pattern).find(text));
  env.registerFunction('string.findAll(string): list<string>', (text: string, pattern: string) => re2(pattern).findAll(text));
  env.registerFunction('string.findAll(string, int): list<string>', (text: string, pattern: string, n: bigint) => re2(pattern).findAll(text, Number(n)));

  // url
  env.registerFunction('url(string): URL', (text: string) => {
    const url = toUrl(text);
    if (!url) throw evaluationFailure(`URL parse error during conversion from string: parse "${text}": invalid URI for request`);
    return new CelUrl(url);
  });
  env.registerFunction('isURL(string): bool', (text: string) => toUrl(text) !== undefined);
  env.registerFunction('URL.getScheme(): string', (u: CelUrl) => u.url.protocol.replace(/:$/, ''));
  env.registerFunction('URL.getHost(): string', (u: CelUrl) => u.url.host);
  env.registerFunction('URL.getHostname(): string', (u: CelUrl) => u.url.hostname.replace(/^\[|\]$/g, ''));
  env.registerFunction('URL.getPort(): string', (u: CelUrl) => u.url.port);
  env.registerFunction('URL.getEscapedPath(): string', (u: CelUrl) => u.url.pathname);
  env.registerFunction('URL.getQuery(): map<string, list<string>>', (u: CelUrl) => {
    const query: Record<string, string[]> = {};
    for (const [key, value] of u.url.searchParams) (query[key] ??= []).push(value);
    return query;
  });

  // ip and cidr
  env.registerFunction('ip(string): net.IP', (text: string) => {
    if (!isIP(text) || text.includes('%')) throw evaluationFailure(`IP Address "${text}" parse error during conversion from string: ParseAddr("${text}"): unable to parse IP`);
    return new CelIp(text);
  });
  env.registerFunction('isIP(string): bool', (text: string) => isIP(text) !== 0 && !text.includes('%'));
  env.registerFunction('net.IP.family(): int', (ip: CelIp) => (isIPv4(ip.address) ? 4n : 6n));
  env.registerFunction('net.IP.isLoopback(): bool', (ip: CelIp) => (isIPv4(ip.address) ? ip.address.startsWith('127.') : ipBits(ip.address).value === 1n));
  env.registerFunction('net.IP.isUnspecified(): bool', (ip: CelIp) => ipBits(ip.address).value === 0n);
  env.registerFunction('cidr(string): net.CIDR', (text: string) => {
    const cidr = toCidr(text);
    if (!cidr) throw evaluationFailure(`network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("${text}"): bad prefix`);
    return cidr;
  });
  env.registerFunction('isCIDR(string): bool', (text: string) => toCidr(text) !== undefined);
  env.registerFunction('net.CIDR.containsIP(net.IP): bool', (cidr: CelCidr, ip: CelIp) => contains(cidr, ip.address));
  env.registerFunction('net.CIDR.containsIP(string): bool', (cidr: CelCidr, ip: string) => isIP(ip) !== 0 && contains(cidr, ip));
  env.registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', (cidr: CelCidr, other: CelCidr) => other.prefix >= cidr.prefix && contains(cidr, other.address));
  env.registerFunction('net.CIDR.containsCIDR(string): bool', (cidr: CelCidr, text: string) => {
    const other = toCidr(text);
    return other !== undefined && other.prefix >= cidr.prefix && contains(cidr, other.address);
  });
  env.registerFunction('net.CIDR.ip(): net.IP', (cidr: CelCidr) => new CelIp(cidr.address));
  env.registerFunction('net.CIDR.prefixLength(): int', (cidr: CelCidr) => BigInt(cidr.prefix));

  // quantity
  const q = (text: string): CelQuantity => {
    const parsed = parseQuantity(text);
    if (!parsed) throw evaluationFailure('quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'');
    return new CelQuantity(parsed);
  };
  env.registerFunction('quantity(string): Quantity', q);
  env.registerFunction('isQuantity(string): bool', (text: string) => parseQuantity(text) !== undefined);
  env.registerFunction('Quantity.isInteger(): bool', (a: CelQuantity) => a.quantity.denominator === 1n);
  env.registerFunction('Quantity.asInteger(): int', (a: CelQuantity) => {
    if (a.quantity.denominator !== 1n) throw evaluationFailure('cannot convert value to integer');
    return a.quantity.numerator;
  });
  env.registerFunction('Quantity.asApproximateFloat(): double', (a: CelQuantity) => Number(a.quantity.numerator) / Number(a.quantity.denominator));
  env.registerFunction('Quantity.sign(): int', (a: CelQuantity) => BigInt(Math.sign(Number(a.quantity.numerator))));
  const cmp = (a: CelQuantity, b: CelQuantity) => {
    const left = a.quantity.numerator * b.quantity.denominator;
    const right = b.quantity.numerator * a.quantity.denominator;
    return left < right ? -1n : left > right ? 1n : 0n;
  };
  env.registerFunction('Quantity.compareTo(Quantity): int', cmp);
  env.registerFunction('Quantity.isGreaterThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => cmp(a, b) > 0n);
  env.registerFunction('Quantity.isLessThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => cmp(a, b) < 0n);
  const add = (a: Quantity, b: Quantity, sign: bigint): CelQuantity => new CelQuantity({ numerator: a.numerator * b.denominator + sign * b.numerator * a.denominator, denominator: a.denominator * b.denominator });
  env.registerFunction('Quantity.add(Quantity): Quantity', (a: CelQuantity, b: CelQuantity) => add(a.quantity, b.quantity, 1n));
  env.registerFunction('Quantity.add(int): Quantity', (a: CelQuantity, b: bigint) => add(a.quantity, { numerator: b, denominator: 1n }, 1n));
  env.registerFunction('Quantity.sub(Quantity): Quantity', (a: CelQuantity, b: CelQuantity) => add(a.quantity, b.quantity, -1n));
  env.registerFunction('Quantity.sub(int): Quantity', (a: CelQuantity, b: bigint) => add(a.quantity, { numerator: b, denominator: 1n }, -1n));
}
