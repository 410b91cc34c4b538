/**
 * The functions Kubernetes adds to CEL for CRD validation rules (apiserver's `library`
 * package and the cel-go extensions it enables), declared by signature so rules are
 * type-checked against them. Only what is certain is declared: a rule calling anything else
 * is not type-checked at all (see `unsupported` in check.ts) rather than refused wrongly.
 *
 * @module
 */

/** Opaque types the libraries return. */
export const libraryTypes = ['URL', 'Quantity', 'IP', 'CIDR', 'Semver'] as const;

/**
 * The element types Kubernetes' lists library orders: `isSorted` is declared for lists of these
 * only (a list of objects is refused; a list of `dyn` matches one of them, as in cel-go).
 * `min` and `max` have the same overloads there, but declared so here cel-js would type
 * `min()` of a `list<dyn>` as the first one's element, not `dyn`, and refuse rules cel-go accepts.
 */
const comparableTypes = ['int', 'uint', 'double', 'bool', 'bytes', 'string', 'google.protobuf.Timestamp', 'google.protobuf.Duration'];

export const librarySignatures: readonly string[] = [
  // lists
  ...comparableTypes.map((type) => `list<${type}>.isSorted(): bool`),
  'list<A>.sum(): A',
  'list<A>.min(): A',
  'list<A>.max(): A',
  'list<A>.indexOf(A): int',
  'list<A>.lastIndexOf(A): int',
  // strings (the parts cel-js does not have built in)
  'string.charAt(int): string',
  'string.replace(string, string): string',
  'string.replace(string, string, int): string',
  'string.format(list<dyn>): string',
  // cel-go's conversions cel-js lacks
  'string(google.protobuf.Timestamp): string',
  'string(google.protobuf.Duration): string',
  // regex
  'matches(string, string): bool',
  'string.find(string): string',
  'string.findAll(string): list<string>',
  'string.findAll(string, int): list<string>',
  // url
  'url(string): URL',
  'isURL(string): bool',
  'URL.getScheme(): string',
  'URL.getHost(): string',
  'URL.getHostname(): string',
  'URL.getPort(): string',
  'URL.getEscapedPath(): string',
  'URL.getQuery(): map<string, list<string>>',
  // quantity
  'quantity(string): Quantity',
  'isQuantity(string): bool',
  'Quantity.isInteger(): bool',
  'Quantity.asInteger(): int',
  'Quantity.asApproximateFloat(): double',
  'Quantity.sign(): int',
  'Quantity.add(Quantity): Quantity',
  'Quantity.add(int): Quantity',
  'Quantity.sub(Quantity): Quantity',
  'Quantity.sub(int): Quantity',
  'Quantity.isGreaterThan(Quantity): bool',
  'Quantity.isLessThan(Quantity): bool',
  'Quantity.compareTo(Quantity): int',
  // ip and cidr
  'ip(string): IP',
  'isIP(string): bool',
  'IP.family(): int',
  'IP.isUnspecified(): bool',
  'IP.isLoopback(): bool',
  'IP.isLinkLocalMulticast(): bool',
  'IP.isLinkLocalUnicast(): bool',
  'IP.isGlobalUnicast(): bool',
  'cidr(string): CIDR',
  'isCIDR(string): bool',
  'CIDR.containsIP(IP): bool',
  'CIDR.containsIP(string): bool',
  'CIDR.containsCIDR(CIDR): bool',
  'CIDR.containsCIDR(string): bool',
  'CIDR.ip(): IP',
  'CIDR.masked(): CIDR',
  'CIDR.prefixLength(): int',
  // semver
  'semver(string): Semver',
  'isSemver(string): bool',
  'Semver.major(): int',
  'Semver.minor(): int',
  'Semver.patch(): int',
  'Semver.isGreaterThan(Semver): bool',
  'Semver.isLessThan(Semver): bool',
  'Semver.compareTo(Semver): int',
];

/**
 * Function names whose "no matching overload" is a real error: CEL's standard ones and those
 * declared above. A call of any other name may be a Kubernetes function not declared here.
 */
export const knownFunctions: ReadonlySet<string> = new Set([
  ...librarySignatures.map((s) => /(?:^|\.)([A-Za-z]+)\(/.exec(s)![1]!),
  'size', 'contains', 'startsWith', 'endsWith', 'matches', 'lowerAscii', 'upperAscii', 'split', 'substring', 'trim', 'join',
  'int', 'uint', 'double', 'string', 'bytes', 'bool', 'timestamp', 'duration', 'dyn', 'type', 'hasValue', 'value', 'orValue', 'or',
  'getFullYear', 'getMonth', 'getDayOfMonth', 'getDate', 'getDayOfWeek', 'getDayOfYear', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds',
]);
