import { afterEach, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { Lease } from '../../src/client/kinds.js';
import { runLeaderElection } from '../../src/leaderelection/index.js';
import type { Cluster } from '../../src/rest/cluster.js';
import type { HttpRequest } from '../../src/rest/transport.js';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { eventually } from '../fixtures/eventually.js';

let memory: MemoryCluster | undefined;
afterEach(() => memory?.close());

/** A cluster whose next Lease update, once `hold` is set, is applied by the server but answered only when its caller gives up. */
function withHeldRenewals(cluster: Cluster): { cluster: Cluster; hold: boolean; held: number } {
  const state = { cluster, hold: false, held: 0 };
  const { transport } = cluster;
  state.cluster = {
    ...cluster,
    transport: {
      ...transport,
      async request<T>(request: HttpRequest): Promise<T> {
        const answer = await transport.request<T>(request);
        if (!state.hold || request.method !== 'PUT' || !request.path.includes('/leases/')) return answer;
        state.hold = false;
        state.held++;
        await new Promise((resolve) => request.signal?.addEventListener('abort', resolve, { once: true }));
        throw request.signal?.reason ?? new Error('aborted');
      },
    },
  };
  return state;
}

// A stop that lands while a renewal is on the wire: the server applied the renewal, the
// leader never saw its answer, so its copy of the Lease is one version behind. It must still
// release, or the next candidate waits out the whole Lease duration.
it('releases the lease on a clean stop that cut short a renewal the server applied', async () => {
  memory = await createMemoryCluster();
  const held = withHeldRenewals(memory.cluster);
  const client = createClient(memory.cluster);
  const stop = new AbortController();
  let leading = false;
  const done = runLeaderElection(
    held.cluster,
    { id: 'held', namespace: 'default', identity: 'one', leaseDurationMs: 60_000, renewDeadlineMs: 40_000, retryPeriodMs: 200, signal: stop.signal },
    { onStartedLeading: () => (leading = true), onStoppedLeading: () => {} },
  );
  await eventually('leading', () => leading);
  held.hold = true;
  // The cluster's clock is a fake one: the next renewal is due when it moves.
  memory.clock.advance(200);
  await eventually('a renewal held after the server applied it', () => held.held > 0);
  stop.abort();
  await done;
  const lease = await client.get(Lease, 'held', 'default');
  expect(lease?.spec?.holderIdentity ?? '').toBe('');
});
