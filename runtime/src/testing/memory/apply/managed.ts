/**
 * managedFields as the API server keeps them: one entry per manager, operation (Apply or
 * Update), subresource and (for Update) apiVersion, each with the set of fields it owns.
 */
import { fromFieldsV1, toFieldsV1, union, type FieldSet } from './fieldset.js';

/** A metadata.managedFields entry, as the API serves it. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

/** One manager's ownership: its entry's identity, the fields, and when it last changed something. */
export interface Ownership {
  manager: string;
  operation: 'Apply' | 'Update';
  subresource?: string;
  /** The apiVersion the fields were recorded in. */
  apiVersion: string;
  set: FieldSet;
  time?: string;
}

/** Ownerships by identifier (see {@link identifier}). */
export type Managed = Map<string, Ownership>;

/**
 * What tells two entries apart: manager, operation, subresource, and for Update the apiVersion
 * (an applier keeps one entry whatever version it applies). The same JSON the API server uses.
 */
export function identifier(o: Pick<Ownership, 'manager' | 'operation' | 'subresource' | 'apiVersion'>): string {
  const id: Record<string, string> = { manager: o.manager, operation: o.operation };
  if (o.operation === 'Update' && o.apiVersion) id.apiVersion = o.apiVersion;
  if (o.subresource) id.subresource = o.subresource;
  return JSON.stringify(id);
}

/** Reads managedFields; throws when an entry cannot be read (the callers then decide, as upstream). */
export function decodeManaged(entries: unknown): Managed {
  const out: Managed = new Map();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) throw new Error('managedFields must be a list');
  for (const raw of entries as ManagedFieldsEntry[]) {
    if (raw === null || typeof raw !== 'object') throw new Error('a managedFields entry must be an object');
    if (raw.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType "${raw.fieldsType ?? ''}"`);
    if (raw.operation !== 'Apply' && raw.operation !== 'Update') throw new Error(`invalid operation "${raw.operation ?? ''}"`);
    const ownership: Ownership = {
      manager: raw.manager ?? '',
      operation: raw.operation,
      apiVersion: raw.apiVersion ?? '',
      set: fromFieldsV1(raw.fieldsV1 ?? {}),
    };
    if (raw.subresource) ownership.subresource = raw.subresource;
    if (raw.time) ownership.time = raw.time;
    const id = identifier(ownership);
    if (out.has(id)) throw new Error(`duplicate managedFields entry for ${id}`);
    out.set(id, ownership);
  }
  return out;
}

/** The managedFields entries, in the API server's order: operation, time (seconds), manager, apiVersion, subresource. */
export function encodeManaged(managed: Managed): ManagedFieldsEntry[] {
  const seconds = (time?: string) => (time ? Math.floor(Date.parse(time) / 1000) : 0);
  const ordered = [...managed.values()].sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
  return ordered.map((o) => {
    const entry: ManagedFieldsEntry = { manager: o.manager, operation: o.operation, apiVersion: o.apiVersion };
    if (o.time) entry.time = o.time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = toFieldsV1(o.set);
    if (o.subresource) entry.subresource = o.subresource;
    return entry;
  });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The manager's entry as a conflict names it: `"name"`, `with subresource "status"`, and for an
 * updater `using apps/v1`.
 */
export function describeManager(id: string): string {
  const parsed = JSON.parse(id) as { manager?: string; operation?: string; apiVersion?: string; subresource?: string };
  let out = JSON.stringify(parsed.manager ?? '');
  if (parsed.subresource) out += ` with subresource ${JSON.stringify(parsed.subresource)}`;
  if (parsed.operation === 'Update') out += ` using ${parsed.apiVersion ?? ''}`;
  return out;
}

/** At most this many Update entries; older ones merge into `ancient-changes` (the API server's default). */
const MAX_UPDATE_MANAGERS = 10;

/**
 * Keeps the number of Update entries at {@link MAX_UPDATE_MANAGERS}: the oldest are merged,
 * per apiVersion, into one `ancient-changes` entry that takes the time of the newest it holds.
 */
export function capUpdateManagers(managed: Managed): void {
  const seconds = (id: string) => {
    const time = managed.get(id)?.time;
    return time ? Math.floor(Date.parse(time) / 1000) : 0;
  };
  const updaters = [...managed].filter(([, o]) => o.operation === 'Update').map(([id]) => id);
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort((a, b) => seconds(a) - seconds(b) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const id = updaters[i]!;
    const ownership = managed.get(id)!;
    const bucketId = identifier({ manager: 'ancient-changes', operation: 'Update', apiVersion: ownership.apiVersion });
    const first = firstOfVersion.get(ownership.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(ownership.apiVersion, id);
      continue;
    }
    if (!managed.has(bucketId)) {
      const moved = managed.get(first)!;
      managed.delete(first);
      managed.set(bucketId, { manager: 'ancient-changes', operation: 'Update', apiVersion: moved.apiVersion, set: moved.set });
    }
    const bucket = managed.get(bucketId)!;
    bucket.set = union(ownership.set, bucket.set);
    managed.delete(id);
    length--;
    if (ownership.time) bucket.time = ownership.time;
    else delete bucket.time;
  }
}

/**
 * The manager an Update is recorded under: `?fieldManager=`, else the user agent up to its
 * first `/`, printable characters only, at most 128 bytes.
 *
 * @example
 * managerFromRequest(undefined, 'kubectl/v1.36.3 (linux/amd64)'); // 'kubectl'
 */
export function managerFromRequest(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  let out = '';
  for (const ch of (userAgent ?? '').split('/')[0]!) {
    if (!/\P{C}/u.test(ch)) continue;
    if (Buffer.byteLength(out + ch) > 128) break;
    out += ch;
  }
  return out;
}
