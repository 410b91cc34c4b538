import { describe, expect, it } from 'vitest';
import { balance, emptyTable, nextTable, slotsOf, type SlotTable } from '../../src/sharding/slot-table.js';
import { fnv1a64, shardSelectorFor, slotOf, SLOTS } from '../../src/sharding/slots.js';

describe('slots of the server-side mode', () => {
  it('hash uids as kube-apiserver 1.36.3 does: these uids were listed by the low-half selector, those by the high half', () => {
    // Measured: ConfigMaps listed with shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') and its complement.
    const low = ['0e2ca2e4-c995-469b-88b8-e1223d5d8694', '2dc30e31-2e76-4f1e-8d31-069d86d6d28c', '13a27c98-5cb1-46df-aad9-7d33283b7a7f'];
    const high = ['6c8d2f25-d5b9-48c7-a696-6bd788d3a925', '903f6428-e298-40f9-9477-dcd31205769f', 'ee7dfd30-ac99-47b1-b453-33aaca07fb55'];
    expect(fnv1a64(low[0]!)).toBe(0x1f61dd11d7d0f1c5n);
    for (const uid of low) expect(slotOf(uid)).toBeLessThan(SLOTS / 2);
    for (const uid of high) expect(slotOf(uid)).toBeGreaterThanOrEqual(SLOTS / 2);
  });

  it('select runs of adjacent slots as one range each; all slots end at 2^64; none selects [0, 1)', () => {
    expect(shardSelectorFor([5, 0, 1])).toBe(
      "shardRange(object.metadata.uid, '0x0000000000000000', '0x0800000000000000') || shardRange(object.metadata.uid, '0x1400000000000000', '0x1800000000000000')",
    );
    expect(shardSelectorFor(Array.from({ length: SLOTS }, (_, i) => i))).toBe("shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')");
    expect(shardSelectorFor([])).toBe("shardRange(object.metadata.uid, '0x0000000000000000', '0x0000000000000001')");
  });

  it('balance: each live member gets 21 or 22 of 64 among three, and a fourth takes slots only from the others', () => {
    const three = balance(emptyTable(), ['r1', 'r2', 'r3']);
    const counts = (owners: Array<string | undefined>) => owners.reduce<Record<string, number>>((c, o) => ({ ...c, [o!]: (c[o!] ?? 0) + 1 }), {});
    expect(Object.values(counts(three)).sort()).toEqual([21, 21, 22]);
    const table: SlotTable = { generation: 1, slots: three.map((owner) => ({ owner: owner! })) };
    const four = balance(table, ['r1', 'r2', 'r3', 'r4']);
    expect(Object.values(counts(four)).sort()).toEqual([16, 16, 16, 16]);
    expect(four.every((owner, slot) => owner === 'r4' || owner === three[slot])).toBe(true);
  });
});

describe('the slot table', () => {
  /**
   * A model run: replicas see table generations late and in their own time, acknowledge
   * what they applied; members join and die. No two live replicas may ever hold one slot
   * in the generations they apply, and the table settles on a balanced assignment.
   */
  it('never gives a slot to two live replicas, however late they apply, and settles balanced', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 25; run++) {
      const history: SlotTable[] = [emptyTable()];
      const seen = new Map<string, number>([['r1', 0], ['r2', 0]]);
      let nextId = 3;
      for (let step = 0; step < 120; step++) {
        const live = [...seen.keys()].sort();
        const r = random();
        if (r < 0.05 && live.length < 5) seen.set(`r${nextId++}`, history.length - 1);
        else if (r < 0.08 && live.length > 1) seen.delete(live[Math.floor(random() * live.length)]!);
        else if (r < 0.5) {
          const shard = live[Math.floor(random() * live.length)]!;
          seen.set(shard, seen.get(shard)! + Math.floor(random() * (history.length - seen.get(shard)!)));
        } else {
          const latest = history.at(-1)!;
          const next = nextTable(latest, { live: [...seen.keys()].sort(), applied: (shard) => history[seen.get(shard)!]!.generation });
          if (next) history.push(next.table);
        }
        const held = new Map<number, string>();
        for (const [shard, at] of seen) {
          for (const slot of slotsOf(history[at]!, shard)) {
            expect(held.get(slot), `slot ${slot} of run ${run} step ${step}`).toBeUndefined();
            held.set(slot, shard);
          }
        }
      }
      // Everyone catches up: the table settles with every slot held.
      for (let i = 0; i < 10; i++) {
        for (const shard of seen.keys()) seen.set(shard, history.length - 1);
        const latest = history.at(-1)!;
        const next = nextTable(latest, { live: [...seen.keys()].sort(), applied: (shard) => history[seen.get(shard)!]!.generation });
        if (next) history.push(next.table);
      }
      const final = history.at(-1)!;
      const per = [...seen.keys()].map((shard) => slotsOf(final, shard).length);
      expect(per.reduce((a, b) => a + b, 0)).toBe(SLOTS);
      expect(Math.max(...per) - Math.min(...per)).toBeLessThanOrEqual(1);
    }
  });
});
