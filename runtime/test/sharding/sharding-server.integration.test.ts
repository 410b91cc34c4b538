import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { Lease } from '../../src/client/kinds.js';
import { shardLabel, slotsLeaseName } from '../../src/sharding/labels.js';
import { parseTable, SLOTS_ANNOTATION, type SlotTable } from '../../src/sharding/slot-table.js';
import { slotOf, SLOTS } from '../../src/sharding/slots.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';
import { killAll } from '../fixtures/manager-process.js';
import { overlappingReconciles } from '../fixtures/reconcile-intervals.js';
import { SETTLE_MS, SHARD_OBJECTS as OBJECTS, SHARD_TEST_MS, shardReplicas } from '../fixtures/shard-replicas.js';

// The server-side mode, on kube-apiserver 1.36 started with --feature-gates=ShardedListAndWatch=true:
// three replicas (real processes) find the API server serves shard selectors and each
// lists and watches only the Widgets whose metadata.uid hashes into the slots the table
// (Lease `widgets-slots`) gives it; no object is labelled. A restart moves nothing. A fourth replica takes slots
// from live owners while the widgets keep changing, and a SIGKILLed replica's slots move
// once its Lease expires; each reconcile logs its start and end, and no object is ever
// reconciled by two replicas at overlapping times.
// 30,000 objects (`SHARD_OBJECTS`): the vitest project `scale` runs this file after the rest of the suite and
// alone, since its replicas take both cores of a small machine for minutes.
const NS = 'default';
const RING = 'widgets';
const LEASE = { durationMs: 8_000, renewDeadlineMs: 6_000, retryMs: 1_000 };
const SCRIPT = fileURLToPath(new URL('../fixtures/sharded-widget-manager.ts', import.meta.url));
const name = (i: number) => `ss-${String(i).padStart(5, '0')}`;

let cp: ControlPlane;
let admin: Client;
const replicas = shardReplicas({ script: SCRIPT, ring: RING, lease: LEASE, kubeconfigPath: () => cp.kubeconfigPath });
const { processes, all, killedAt, intervals } = replicas;
// Reconciles take a second, so that a handover finds some in flight, and up to 64 run at
// once, so that a new holder starts on all its objects at once: one starting before the
// old holder's reconcile ended would show as an overlap.
const startReplica = (shard: string) => replicas.start(shard, { RECONCILE_MS: '1000', RECONCILES: '64' });

async function table(): Promise<SlotTable> {
  const lease = await admin.get(Lease, slotsLeaseName(RING), NS);
  return parseTable(lease?.metadata.annotations?.[SLOTS_ANNOTATION]);
}

/** The table gives every slot to one of `shards`, balanced, none being released. */
const settledTable = (t: SlotTable, shards: string[]) => {
  const owners = t.slots.map((e) => ('owner' in e ? e.owner : undefined));
  const counts = shards.map((s) => owners.filter((o) => o === s).length);
  return owners.every((o) => o !== undefined && shards.includes(o)) && Math.max(...counts) - Math.min(...counts) <= 1;
};

let lastWrong: string[] = [];
/** The table settled on `shards`, and every widget reconciled by the owner of its uid's slot. */
async function settle(shards: string[]): Promise<SlotTable> {
  try {
    return await eventually(
      `every widget reconciled by the owner of its slot among ${shards.join(',')}`,
      async () => {
        // A full list of every widget is heavy on the API server: not more than every 2 s.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const t = await table();
        if (!settledTable(t, shards)) {
          lastWrong = [`table not settled: ${JSON.stringify(t)}`];
          return false;
        }
        const list = await admin.list(Widget, { namespace: NS });
        const wrong = list.filter((w) => w.status?.reconciledBy !== (t.slots[slotOf(w.metadata.uid)] as { owner: string }).owner);
        lastWrong = wrong.slice(0, 5).map((w) => `${w.metadata.name} slot ${slotOf(w.metadata.uid)} ${JSON.stringify(w.status)}`);
        return list.length === OBJECTS && wrong.length === 0 && t;
      },
      SETTLE_MS,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${lastWrong.join('\n')}\n${replicas.tails()}`);
  }
}


beforeAll(async () => {
  cp = await startControlPlane({ extraArgs: { kubeApiServer: ['--feature-gates=ShardedListAndWatch=true'] } });
  await installCRDs(cp.kubeConfig, WIDGET_CRD);
  admin = createClient(cp.kubeConfig);
}, 300_000);

afterAll(async () => {
  await killAll(all);
  await cp?.stop();
});

describe(`server-side sharding (ShardedListAndWatch) of ${OBJECTS} widgets over real operator processes`, () => {
  it('three replicas detect the server-side mode; each object is reconciled by exactly the replica whose slots hold its uid; no label is written', async () => {
    for (const shard of ['r1', 'r2', 'r3']) startReplica(shard);
    for (const m of all) expect((await m.line('the sharding mode', (l) => l.msg === 'Sharding mode', 180_000)).mode).toBe('server');
    await eventually('a settled table of three', async () => settledTable(await table(), ['r1', 'r2', 'r3']), 180_000);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < OBJECTS; i = next++) await admin.create(Widget, { metadata: { name: name(i), namespace: NS }, spec: { size: 1 } });
      }),
    );
    const t = await settle(['r1', 'r2', 'r3']);
    const byObject = intervals();
    const list = await admin.list(Widget, { namespace: NS });
    const counts: Record<string, number> = {};
    for (const w of list) {
      const owner = (t.slots[slotOf(w.metadata.uid)] as { owner: string }).owner;
      counts[owner] = (counts[owner] ?? 0) + 1;
      expect([...new Set((byObject.get(w.metadata.name) ?? []).map((i) => i.shard))], w.metadata.name).toEqual([owner]);
      expect(w.metadata.labels?.[shardLabel(RING)], 'no shard label in the server-side mode').toBeUndefined();
    }
    console.log(`server-side sharding: objects per replica ${JSON.stringify(counts)} (slots 64: 21/21/22)`);
    for (const shard of ['r1', 'r2', 'r3']) expect(counts[shard]).toBeGreaterThan(OBJECTS / 6);
    // Each replica's cache held its own share only (no label exists to select by): the API
    // server filtered the list and watch by the shard selector.
    for (const [shard, [m]] of processes) {
      const cached = m!.lines.filter((l) => l.msg === 'reconcile finished').map((l) => Number(l.cached));
      expect(Math.max(...cached), shard).toBe(counts[shard]);
    }
    expect(overlappingReconciles(byObject)).toEqual([]);
  }, SHARD_TEST_MS);

  it('restarting a replica moves no slot: back under its id within the Lease duration, it holds its slots again', async () => {
    const before = await table();
    const [old] = processes.get('r2')!;
    old!.child.kill('SIGTERM');
    expect(await old!.exited).toBe(0);
    const again = startReplica('r2');
    await again.line('the restarted replica reconciles its shard', (l) => l.msg === 'Reconciling this shard', 120_000);
    // Longer than a Lease duration: a move would have begun by now.
    await new Promise((resolve) => setTimeout(resolve, LEASE.durationMs * 2));
    expect((await table()).slots).toEqual(before.slots);
    const applied = await again.line('the restarted replica holds its slots', (l) => l.msg === 'Applied the slot table', 60_000);
    expect(applied.slots).toBe(before.slots.filter((e) => 'owner' in e && e.owner === 'r2').length);
  }, 300_000);

  it('a fourth replica takes slots from the live owners while every widget keeps changing: no object reconciled by two replicas at once', async () => {
    const started = Date.now();
    // Changes keep reconciles in flight on the old owners throughout the handover.
    let stop = false;
    let size = 1;
    let patched = 0;
    const before = await table();
    const churn = (async () => {
      while (!stop) {
        size++;
        for (let i = 0; i < OBJECTS && !stop; i += 7) {
          await admin.patch(Widget, { metadata: { name: name(i), namespace: NS } }, { spec: { size } });
          patched++;
        }
      }
    })();
    startReplica('r4');
    try {
      await eventually('a settled table of four', async () => settledTable(await table(), ['r1', 'r2', 'r3', 'r4']), SETTLE_MS);
    } finally {
      stop = true;
      await churn;
    }
    const t = await settle(['r1', 'r2', 'r3', 'r4']);
    const onNew = t.slots.filter((e) => 'owner' in e && e.owner === 'r4').length;
    console.log(`server-side sharding: r4 took ${onNew} of ${SLOTS} slots in ${Date.now() - started} ms`);
    expect(onNew).toBe(16);
    // The handover happened under load: objects that moved to r4 were reconciled by their old
    // holder during the rebalance, and by r4 after.
    const moved = (await admin.list(Widget, { namespace: NS })).filter((w) => (t.slots[slotOf(w.metadata.uid)] as { owner: string }).owner === 'r4');
    const byObject = intervals();
    const busyBefore = moved.filter((w) => byObject.get(w.metadata.name)!.some((i) => i.shard !== 'r4' && i.start > started));
    console.log(`server-side sharding: ${patched} patches during the rebalance; ${busyBefore.length} of the ${moved.length} objects moved to r4 were reconciled by their old holder during it`);
    expect(busyBefore.length).toBeGreaterThan(0);
    expect(moved.every((w) => (before.slots[slotOf(w.metadata.uid)] as { owner: string }).owner !== 'r4')).toBe(true);
    expect(overlappingReconciles(byObject)).toEqual([]);
  }, SHARD_TEST_MS);

  it('SIGKILL: the killed replica\'s objects are reconciled by the others after its Lease expires, never at once with it', async () => {
    const ring = ['r1', 'r2', 'r3', 'r4'];
    const victim = ring.find((s) => s !== replicas.sharder())!;
    const before = await table();
    const orphans = (await admin.list(Widget, { namespace: NS })).filter((w) => (before.slots[slotOf(w.metadata.uid)] as { owner: string }).owner === victim).map((w) => w.metadata.name);
    const m = processes.get(victim)!.at(-1)!;
    const at = Date.now();
    m.child.kill('SIGKILL');
    killedAt.set(m, at);
    await m.exited;
    const times = await eventually(
      `the ${orphans.length} objects of ${victim} reconciled by the others`,
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const byObject = intervals();
        const found = orphans.map((w) => byObject.get(w)?.find((i) => i.shard !== victim && i.start > at)?.start);
        return found.every((t) => t !== undefined) ? (found as number[]) : undefined;
      },
      SETTLE_MS,
    );
    const firstMs = Math.min(...times) - at;
    console.log(`server-side sharding: killed ${victim}; its ${orphans.length} objects reconciled by the others ${firstMs}..${Math.max(...times) - at} ms after the kill`);
    await settle(ring.filter((s) => s !== victim));
    expect(orphans.length).toBeGreaterThan(0);
    // Not before its Lease could have expired (the sharder dates the last renewal it saw, up to
    // one retry before the kill), and within the Lease duration plus one second (the bound).
    expect(firstMs).toBeGreaterThanOrEqual(LEASE.durationMs - LEASE.retryMs);
    expect(firstMs).toBeLessThanOrEqual(LEASE.durationMs + 1_000);
    expect(overlappingReconciles(intervals())).toEqual([]);
  }, SHARD_TEST_MS);
});
