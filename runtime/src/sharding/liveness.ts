import type { Lease } from '../client/kinds.js';
import type { Cached } from '../cache/index.js';

/** Which shards of a ring are alive, from their Leases as one sharder observes them. */
export interface Liveness {
  observe(lease: Cached<Lease>): void;
  forget(lease: Cached<Lease>): void;
  /** Live shard ids, sorted. */
  members(): string[];
  isLive(shard: string): boolean;
  /** The `renewTime` last seen on `shard`'s Lease, to confirm its expiry against a fresh read. */
  renewTimeOf(shard: string): string | undefined;
  /** From now on, reports membership changes (expiries included, by timer). */
  start(signal: AbortSignal): void;
  stop(): void;
}

interface Seen {
  shard: string;
  renewTime: string | undefined;
  /** Monotonic time this sharder saw the current renewal (estimated for the first sighting). */
  observedAt: number;
  durationMs: number;
}

/**
 * Tracks shard Leases like client-go's elector judges a leader's: a shard is alive until
 * `leaseDuration` has passed on this process's monotonic clock since the sharder saw its
 * last renewal. A Lease seen for the first time (the sharder just started) is dated by its
 * `renewTime`, clamped to now, so that a new sharder does not wait a whole lease duration
 * more before reassigning a shard that died together with the old sharder; that one
 * estimate trusts the clocks to agree within the gap between renew deadline and duration.
 */
export function createLiveness(defaultDurationMs: number, onChange: (members: string[]) => void): Liveness {
  const seen = new Map<string, Seen>();
  let current: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running = false;

  const alive = (s: Seen, now: number) => now - s.observedAt < s.durationMs;
  const compute = (): string[] => {
    const now = performance.now();
    return [...new Set([...seen.values()].filter((s) => alive(s, now)).map((s) => s.shard))].sort();
  };
  const refresh = (): void => {
    if (!running) return;
    const next = compute();
    if (next.join(',') !== current.join(',')) {
      current = next;
      onChange(next);
    }
    schedule();
  };
  const schedule = (): void => {
    clearTimeout(timer);
    const now = performance.now();
    const expiries = [...seen.values()].filter((s) => alive(s, now)).map((s) => s.observedAt + s.durationMs - now);
    if (expiries.length > 0) timer = setTimeout(refresh, Math.max(1, Math.min(...expiries) + 1));
  };

  return {
    observe(lease) {
      const name = lease.metadata.name;
      const holder = lease.spec?.holderIdentity;
      if (!holder) {
        seen.delete(name);
        return refresh();
      }
      const renewTime = lease.spec?.renewTime as string | undefined;
      const before = seen.get(name);
      const now = performance.now();
      let observedAt = now;
      if (before && before.renewTime === renewTime) observedAt = before.observedAt;
      else if (!before && renewTime) observedAt = now - Math.max(0, Date.now() - Date.parse(renewTime));
      seen.set(name, { shard: holder, renewTime, observedAt, durationMs: (lease.spec?.leaseDurationSeconds ?? defaultDurationMs / 1000) * 1000 });
      refresh();
    },
    forget(lease) {
      seen.delete(lease.metadata.name);
      refresh();
    },
    members: () => current,
    isLive: (shard) => current.includes(shard),
    renewTimeOf: (shard) => [...seen.values()].find((s) => s.shard === shard)?.renewTime,
    start(signal) {
      running = true;
      current = compute();
      onChange(current);
      schedule();
      signal.addEventListener('abort', () => this.stop(), { once: true });
    },
    stop() {
      running = false;
      clearTimeout(timer);
    },
  };
}
