import { getEventListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { Lease } from '../../src/client/kinds.js';
import { createLogger } from '../../src/log/index.js';
import { RING_LABEL, shardLeaseName, slotsLeaseName } from '../../src/sharding/labels.js';
import { registerShardMetrics } from '../../src/sharding/metrics.js';
import { assignSlots } from '../../src/sharding/slot-sharder.js';
import { parseTable, SLOTS_ANNOTATION } from '../../src/sharding/slot-table.js';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { eventually } from '../fixtures/eventually.js';

let memory: MemoryCluster | undefined;
afterEach(() => memory?.close());

// Every renewal of a shard Lease wakes the sharder. A listener on its leadership signal per
// wake would grow without bound over a long leadership, and Node warns of a leak at the 11th.
it('a server-mode sharder stays at one leadership listener however often the shard Leases renew, and stops when leadership ends', async () => {
  memory = await createMemoryCluster();
  const client = createClient(memory.cluster);
  const leading = new AbortController();
  const running = assignSlots(
    {
      ring: 'uids',
      shard: 'only',
      kinds: [],
      cluster: memory.cluster,
      client,
      namespace: 'default',
      timing: { leaseDurationMs: 60_000, renewDeadlineMs: 40_000, retryPeriodMs: 1_000 },
      log: createLogger({ level: 'silent' }),
      metrics: registerShardMetrics(new Registry(), 'uids', 'r1', () => 0),
      mode: () => 'server',
    },
    leading.signal,
    () => true,
  );
  const renew = () => ({ holderIdentity: 'r1', leaseDurationSeconds: 60, renewTime: new Date().toISOString().replace('Z', '000Z') });
  let lease = await client.create(Lease, { metadata: { name: shardLeaseName('uids', 'r1'), namespace: 'default', labels: { [RING_LABEL]: 'uids' } }, spec: renew() });
  const table = await eventually('the slot table giving r1 every slot', async () => {
    const stored = await client.get(Lease, slotsLeaseName('uids'), 'default');
    const parsed = parseTable(stored?.metadata.annotations?.[SLOTS_ANNOTATION]);
    return parsed.slots.every((s) => 'owner' in s && s.owner === 'r1') && parsed;
  });
  await sleep(100);
  const listeners = getEventListeners(leading.signal, 'abort').length;

  for (let i = 0; i < 30; i++) {
    lease = await client.update(Lease, { ...lease, spec: renew() });
    await sleep(20);
  }
  expect(getEventListeners(leading.signal, 'abort').length).toBe(listeners);
  // Nothing changed but the renewals: the table stands.
  const stored = await client.get(Lease, slotsLeaseName('uids'), 'default');
  expect(parseTable(stored?.metadata.annotations?.[SLOTS_ANNOTATION]).generation).toBe(table.generation);

  leading.abort();
  await expect(running).resolves.toBeUndefined();
});
