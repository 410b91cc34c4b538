import type { Cached } from '../cache/index.js';
import { Lease } from '../client/kinds.js';
import type { Client } from '../client/index.js';
import { shardLeaseName } from './labels.js';
import type { Liveness } from './liveness.js';

/**
 * A starved process sees Leases late: its timers may declare a shard dead whose renewals
 * are still in its watch's backlog. Before the sharder takes anything from a shard as
 * dead, it reads that shard's Lease from the API server; renewed since, the shard is alive
 * (and observed as such, which reports the membership change). One read per shard at a time,
 * remembered for one retry period.
 */
export function createDeathConfirmer(client: Client, liveness: Liveness, ring: string, namespace: string, retryPeriodMs: number): (shard: string) => Promise<boolean> {
  const confirmations = new Map<string, Promise<boolean>>();
  return (shard) => {
    let confirmation = confirmations.get(shard);
    if (!confirmation) {
      confirmation = (async () => {
        const fresh = await client.get(Lease, shardLeaseName(ring, shard), namespace);
        if (!fresh?.spec?.holderIdentity) return true;
        if (fresh.spec.renewTime !== undefined && String(fresh.spec.renewTime) !== liveness.renewTimeOf(shard)) {
          liveness.observe(fresh as Cached<Lease>);
          return false;
        }
        return true;
      })();
      confirmations.set(shard, confirmation);
      const forget = () => setTimeout(() => confirmations.delete(shard), retryPeriodMs).unref();
      confirmation.then(forget, forget);
    }
    return confirmation;
  };
}
