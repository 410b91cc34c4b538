import { isIPv4, isIPv6 } from 'node:net';

/**
 * The string formats the API server's schema validator checks for custom resources (the
 * kube-openapi format registry). Other formats (`int32`, `password`, …) only annotate.
 * The CLI checks defaults, examples and samples with these same checks.
 *
 * @module
 */
const formats: Record<string, (value: string) => boolean> = {
  'date-time': isDateTime,
  datetime: isDateTime,
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
  // The API server refuses the empty string as a byte value (kube-apiserver 1.36.3, the fuzz run found it).
  byte: (v) => v !== '' && /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(v),
  uuid: (v) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(v),
  uuid3: (v) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(v),
  uuid4: (v) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(v),
  uuid5: (v) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(v),
  ipv4: (v) => isIPv4(v),
  ipv6: (v) => isIPv6(v),
  cidr: isCidr,
  mac: (v) => /^[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}$/.test(v),
  hostname: (v) => v.length <= 255 && v.split('.').every((label) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label)),
  email: (v) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v),
  uri: isUri,
  duration: (v) => /^[-+]?(?:\s*\d+(?:\.\d+)?\s*(?:ns|us|µs|ms|s|m|h|d|w))+\s*$/.test(v),
};

/** Whether `value` satisfies `format`; `undefined` when the API server does not check it. */
export function matchesFormat(format: string, value: string): boolean | undefined {
  const check = formats[format];
  return check ? check(value) : undefined;
}

function isDateTime(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  );
}

function isCidr(value: string): boolean {
  const [ip, prefix, ...rest] = value.split('/');
  if (ip === undefined || prefix === undefined || rest.length > 0 || !/^\d{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  return (isIPv4(ip) && bits <= 32) || (isIPv6(ip) && bits <= 128);
}

function isUri(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}
