import { SLOTS } from './slots.js';

/**
 * One slot's entry: held by `owner`, or being released by `from` since generation `at`
 * (no one holds it until `from` has acknowledged `at` or died), or free.
 */
export type SlotEntry = { owner: string } | { from: string; at: number } | Record<string, never>;

/** Which replica holds each slot; every change makes a new `generation`. */
export interface SlotTable {
  generation: number;
  slots: SlotEntry[];
}

/** The annotation of the `<ring>-slots` Lease holding the table, and of each shard Lease holding its acknowledged generation. */
export const SLOTS_ANNOTATION = 'shard.opgen.dev/slots';
export const APPLIED_ANNOTATION = 'shard.opgen.dev/applied-generation';

export const emptyTable = (): SlotTable => ({ generation: 0, slots: Array.from({ length: SLOTS }, () => ({})) });

/** The table in an annotation; an unreadable or absent one is empty at generation 0. */
export function parseTable(text: string | undefined): SlotTable {
  if (!text) return emptyTable();
  try {
    const parsed = JSON.parse(text) as SlotTable;
    if (typeof parsed.generation === 'number' && Array.isArray(parsed.slots) && parsed.slots.length === SLOTS) return parsed;
  } catch {
    // Written by something else: start over, as the sharder of a new ring does.
  }
  return emptyTable();
}

/** The slots `shard` holds in `table`. */
export function slotsOf(table: SlotTable, shard: string): number[] {
  return table.slots.flatMap((entry, slot) => ('owner' in entry && entry.owner === shard ? [slot] : []));
}

/** What the sharder knows of the members. */
export interface Members {
  /** Live shard ids, sorted. */
  live: readonly string[];
  /** The generation `shard` last acknowledged on its Lease (it holds no slot of an older one any more). */
  applied(shard: string): number;
}

/**
 * The next table, or undefined when nothing changes, and the shards whose slots it takes
 * as dead (the caller confirms them dead before writing). Each slot moves toward its
 * rendezvous choice among the live members without two live replicas ever holding it: a
 * live owner is only ever asked to release (its entry becomes `from`); a slot is given to
 * a new owner only when free, released and acknowledged, or held by a dead shard (one
 * whose Lease expired: it stopped reconciling before that, see `Membership.alive`).
 *
 * @example
 * const step = nextTable(table, {
 *   live: ['r1', 'r2'],
 *   applied: (shard) => acknowledged.get(shard) ?? 0,
 * });
 * if (step) await write(step.table); // after confirming step.takesFrom dead
 */
export function nextTable(table: SlotTable, members: Members): { table: SlotTable; takesFrom: string[] } | undefined {
  const generation = table.generation + 1;
  const wanted = balance(table, members.live);
  const isLive = (shard: string) => members.live.includes(shard);
  const takesFrom = new Set<string>();
  let changed = false;
  const slots = table.slots.map((entry, slot): SlotEntry => {
    const desired = wanted[slot];
    const give = (): SlotEntry => (desired ? { owner: desired } : {});
    let next: SlotEntry = entry;
    if ('owner' in entry) {
      if (entry.owner === desired) return entry;
      if (!isLive(entry.owner)) {
        takesFrom.add(entry.owner);
        next = give();
      } else next = { from: entry.owner, at: generation };
    } else if ('from' in entry) {
      // Back to the replica releasing it: it holds it again once it applies this generation.
      if (entry.from === desired) next = give();
      else if (!isLive(entry.from)) {
        takesFrom.add(entry.from);
        next = give();
      } else if (members.applied(entry.from) >= entry.at) next = give();
    } else if (desired) next = give();
    if (JSON.stringify(next) !== JSON.stringify(entry)) changed = true;
    return next;
  });
  return changed ? { table: { generation, slots }, takesFrom: [...takesFrom] } : undefined;
}

/**
 * Who should hold each slot: every live member `⌊64/n⌋` or one more, moving as few slots
 * as possible. A slot stays with its live holder (owner, or the replica releasing it) up to
 * that share; the rest go to the least loaded members. Rendezvous hashing of 64 slots
 * would move as little but balance poorly (17/22/25 among three); the table is the
 * sharder's own state, so it can balance exactly.
 */
export function balance(table: SlotTable, live: readonly string[]): Array<string | undefined> {
  const owners: Array<string | undefined> = Array.from({ length: table.slots.length }, () => undefined);
  if (live.length === 0) return owners;
  const base = Math.floor(table.slots.length / live.length);
  let extras = table.slots.length % live.length;
  const count = new Map(live.map((shard) => [shard, 0]));
  const holderOf = (entry: SlotEntry) => ('owner' in entry ? entry.owner : 'from' in entry ? entry.from : undefined);
  // Up to the base share first, then the few extra slots, each kept where it is.
  for (const round of ['base', 'extra'] as const) {
    table.slots.forEach((entry, slot) => {
      const holder = holderOf(entry);
      if (owners[slot] || holder === undefined || !count.has(holder)) return;
      const n = count.get(holder)!;
      if (round === 'base' ? n < base : n === base && extras > 0) {
        if (round === 'extra') extras--;
        owners[slot] = holder;
        count.set(holder, n + 1);
      }
    });
  }
  owners.forEach((owner, slot) => {
    if (owner) return;
    const [least] = [...count.entries()].filter(([, n]) => n < base || (n === base && extras > 0)).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
    if (!least) return;
    if (least[1] === base) extras--;
    owners[slot] = least[0];
    count.set(least[0], least[1] + 1);
  });
  return owners;
}
