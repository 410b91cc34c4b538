/** Where a server listens: all interfaces when `host` is undefined; port 0 picks a free port. */
export interface BindAddress {
  host?: string;
  port: number;
}

/**
 * Parses a Go-style bind address as kubebuilder's flags take it: `:8080`, `127.0.0.1:8080`,
 * `[::1]:8080`, or `0` to turn the server off (returns `undefined`).
 */
export function parseBindAddress(value: string): BindAddress | undefined {
  if (value === '0' || value === '') return undefined;
  const match = /^(?:\[([0-9A-Za-z:.%]+)\]|([0-9A-Za-z.\-_]*)):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) {
    throw new Error(`invalid bind address "${value}": expected [host]:port (e.g. ":8080", "127.0.0.1:8080") or "0" to disable`);
  }
  const host = match[1] ?? match[2];
  return host ? { host, port } : { port };
}
