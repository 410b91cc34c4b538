import type { Outcome } from './run.js';

/**
 * Makes one side's recording of a scenario comparable with the other's. Values no two
 * servers share are replaced by tokens that keep what matters:
 * - uids become `<uid:1>`, `<uid:2>`... in order of first appearance (wherever they appear,
 *   messages included), so "the same uid" and "another uid" still compare;
 * - server-written timestamps (`creationTimestamp`, `deletionTimestamp`, a PersistentVolume's
 *   `lastPhaseTransitionTime`, a condition's `lastTransitionTime`, a managedFields entry's
 *   `time`) become `<time>`: present or
 *   absent compares, the instant does not;
 * - an object's `resourceVersion` becomes its rank among all the object versions the
 *   scenario saw (`<rv:1>` is the oldest): so "changed", "unchanged" and "newer than"
 *   compare, while the gaps other writers leave in etcd's revisions (the real control
 *   plane is shared by all scenarios and its controllers) do not. A list's or a
 *   bookmark's resourceVersion is the store's current revision, which those writers move
 *   too: it becomes `<current>`;
 * - an object quoted in a message (Strict field validation's 422 on a patch quotes the patched
 *   object) gets the same: its resourceVersion's rank (`<rv>` when the scenario saw no such
 *   version), `<time>` for its instants;
 * - a 422's causes, and the list in its message, are sorted: the API server's own order
 *   varies from one request to the next (it walks a schema's properties in Go's random map
 *   order), so only which errors there are compares;
 * - what the API server allocates at random (a Service's cluster IPs and node ports, the
 *   suffix `generateName` gets) becomes `<ip>`, `<port>`, `<generated>`;
 * - managedFields entries are put in the API server's order with their times masked
 *   (operation, an entry without a time first, manager, apiVersion, subresource): the server
 *   orders by the second each entry was written, so two writes a second apart on one side
 *   and within a second on the other would differ in order only;
 * - a watch's plain BOOKMARK events (no annotations) are left out: the API server sends them
 *   at its discretion (its bookmark timer may add one right after the initial events' end),
 *   while an annotated one (`k8s.io/initial-events-end`) still compares.
 */
export function normalize(outcomes: Outcome[]): Outcome[] {
  const ranks = rankVersions(outcomes);
  const uids = new Map<string, string>();
  return outcomes.map((outcome) => sortCauses(walk(withoutPlainBookmarks(outcome), undefined, ranks, uids)) as Outcome);
}

function withoutPlainBookmarks(outcome: Outcome): Outcome {
  if (!outcome.events) return outcome;
  const plain = (event: { type: string; object: unknown }) =>
    event.type === 'BOOKMARK' && (event.object as { metadata?: { annotations?: object } } | null)?.metadata?.annotations === undefined;
  return { ...outcome, events: outcome.events.filter((event) => !plain(event)) };
}

interface Cause {
  field?: string;
  message?: string;
}

/** Sorts every Status's causes, and the message's list of them when it is exactly that list. */
function sortCauses(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortCauses);
  if (value === null || typeof value !== 'object') return value;
  const object = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sortCauses(item)]));
  const details = object.details as { causes?: Cause[] } | undefined;
  if (object.kind !== 'Status' || !Array.isArray(details?.causes) || details.causes.length < 2) return object;
  const line = (cause: Cause): string => `${cause.field ?? '<nil>'}: ${cause.message ?? ''}`;
  const causes = [...details.causes].sort((a, b) => (line(a) < line(b) ? -1 : line(a) > line(b) ? 1 : 0));
  const message = typeof object.message === 'string' ? object.message : '';
  const open = message.indexOf(': [');
  if (open >= 0 && message.endsWith(']')) {
    const inner = message.slice(open + 3, -1);
    const inOrder = [...details.causes].sort((a, b) => inner.indexOf(line(a)) - inner.indexOf(line(b)));
    if (inOrder.map(line).join(', ') === inner) object.message = `${message.slice(0, open + 3)}${causes.map(line).join(', ')}]`;
  }
  return { ...object, details: { ...details, causes } };
}

const UID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Instants the server writes; `lastTransitionTime` as its controllers write a CRD's conditions. */
const TIMESTAMP_KEYS = new Set(['creationTimestamp', 'deletionTimestamp', 'lastPhaseTransitionTime', 'lastTransitionTime']);
/** A 410's message names the oldest version the server still holds: a revision like a list's. */
const TOO_OLD = /too old resource version: (\d+) \((\d+)\)/g;
/** A failed precondition names both versions. */
const PRECONDITION = /(ResourceVersion in the precondition|ResourceVersion in record) \((\d+)\)/g;
/** An object quoted in a message (a Strict patch's 422 quotes the patched object): its resourceVersion and its instants. */
const QUOTED_VERSION = /(\\"resourceVersion\\":\\")(\d+)/g;
const QUOTED_TIME = /(\\")\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z(\\")/g;
const IP = /^[0-9a-f.:]+$/;
/** `generateName` gets five random characters. */
const GENERATED = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;

function walk(value: unknown, key: string | undefined, ranks: Map<string, string>, uids: Map<string, string>, parent?: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    if (key === 'resourceVersion') return versionToken(value, parent, ranks);
    if (TIMESTAMP_KEYS.has(key ?? '') || (key === 'time' && parent && 'manager' in parent)) return '<time>';
    if (key === 'continue' && value !== '') return '<continue>';
    if (key === 'clusterIP' && IP.test(value)) return '<ip>';
    return replaceUids(value, uids)
      .replace(TOO_OLD, (_all, asked: string) => `too old resource version: ${asked} (<current>)`)
      .replace(PRECONDITION, (_all, which: string, version: string) => `${which} (${ranks.get(version) ?? version})`)
      .replace(QUOTED_VERSION, (_all, open: string, version: string) => `${open}${ranks.get(version) ?? '<rv>'}`)
      .replace(QUOTED_TIME, '$1<time>$2');
  }
  if (typeof value === 'number' && (key === 'nodePort' || key === 'healthCheckNodePort')) return '<port>';
  if (Array.isArray(value)) {
    const items = value.map((item) => walk(item, key === 'clusterIPs' ? 'clusterIP' : undefined, ranks, uids));
    return key === 'managedFields' ? items.sort(byEntry) : items;
  }
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    // A managedFields key may name a uid (`k:{"uid":"..."}` of an owner reference).
    const entries = Object.entries(object).map(([k, v]) => [k.includes('"uid"') ? replaceUids(k, uids) : k, walk(v, k, ranks, uids, object)]);
    const prefix = object.generateName;
    const name = object.name;
    if (typeof prefix === 'string' && typeof name === 'string' && name.startsWith(prefix) && GENERATED.test(name.slice(prefix.length))) {
      return Object.fromEntries(entries.map(([k, v]) => [k, k === 'name' ? `${prefix}<generated>` : v]));
    }
    return Object.fromEntries(entries);
  }
  return value;
}

type Entry = Record<string, unknown> | null;

/** The managedFields order without the seconds (see {@link normalize}). */
function byEntry(a: unknown, b: unknown): number {
  const key = (entry: Entry) => [entry?.operation, entry?.time === undefined ? 0 : 1, entry?.manager, entry?.apiVersion, entry?.subresource ?? ''].map(String);
  const [p, q] = [key(a as Entry), key(b as Entry)];
  for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) return p[i]! < q[i]! ? -1 : 1;
  return 0;
}

function replaceUids(text: string, uids: Map<string, string>): string {
  return text.replace(UID, (uid) => {
    if (!uids.has(uid)) uids.set(uid, `<uid:${uids.size + 1}>`);
    return uids.get(uid) as string;
  });
}

/** `parent` is the `metadata` holding the version; its marker says whose metadata it is. */
function versionToken(value: string, parent: Record<string, unknown> | undefined, ranks: Map<string, string>): string {
  if (parent && CURRENT.has(parent)) return '<current>';
  return ranks.get(value) ?? value;
}

/** The `metadata` objects whose resourceVersion is the store's current revision (lists, bookmarks). */
const CURRENT = new WeakSet<object>();

function rankVersions(outcomes: Outcome[]): Map<string, string> {
  const versions = new Set<string>();
  const visit = (value: unknown, isCurrent: boolean): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, false);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    const metadata = object.metadata as Record<string, unknown> | undefined;
    const current = isCurrent || Array.isArray(object.items);
    if (metadata && typeof metadata === 'object' && typeof metadata.resourceVersion === 'string') {
      if (current) CURRENT.add(metadata);
      else if (/^\d+$/.test(metadata.resourceVersion)) versions.add(metadata.resourceVersion);
    }
    for (const [key, item] of Object.entries(object)) {
      if (key === 'metadata') continue;
      visit(item, false);
    }
  };
  for (const outcome of outcomes) {
    visit(outcome.body, false);
    for (const event of outcome.events ?? []) visit(event.object, event.type === 'BOOKMARK');
  }
  const sorted = [...versions].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
  return new Map(sorted.map((version, index) => [version, `<rv:${index + 1}>`]));
}
