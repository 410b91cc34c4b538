/**
 * The kube-controller-manager controllers the API server's deletion semantics rely on,
 * run in process after writes: the namespace controller (a Terminating namespace's
 * contents are deleted, then its `kubernetes` finalizer is removed and it goes) and the
 * garbage collector (owner references: background deletion of orphaned dependents,
 * foreground deletion with the `foregroundDeletion` finalizer and `blockOwnerDeletion`,
 * orphaning with the `orphan` finalizer), and the storage protection controllers
 * (storage-protection.ts).
 */
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, removeOrMark } from './deletion.js';
import { storageKey, storageVersion } from './registry.js';
import type { ResourceInfo } from './resources.js';
import { commit, type ServerState } from './state.js';
import type { Obj } from './storage.js';
import { releaseStorageObjects } from './storage-protection.js';
import { timestamp } from './strategy.js';

/** The field manager kube-controller-manager's garbage collector writes as. */
const GC_MANAGER = 'kube-controller-manager';

interface Located {
  info: ResourceInfo;
  object: Obj;
}

/** One resource per store (a CRD's storage version stands for all its versions). */
function storedResources(state: ServerState): ResourceInfo[] {
  const seen = new Map<string, ResourceInfo>();
  for (const info of state.registry.all()) {
    const key = storageKey(info);
    if (!seen.has(key) || (info.crd && info.version === storageVersion(info))) seen.set(key, info);
  }
  return [...seen.values()];
}

function everything(state: ServerState): Located[] {
  const out: Located[] = [];
  for (const info of storedResources(state)) for (const object of state.storage.store(storageKey(info)).objects.values()) out.push({ info, object });
  return out;
}

/**
 * Writes a metadata change as an update would: removing the last finalizer of an object
 * being deleted deletes it. `manager`: the garbage collector's writes go through the field
 * manager as its patches do (what it removes leaves every manager's field set).
 */
function updateMeta(state: ServerState, info: ResourceInfo, live: Obj, change: (next: Obj) => void, manager?: string): void {
  let next = structuredClone(live);
  change(next);
  // Empty lists are gone before the field manager compares, as decoding the patched object
  // into its Go type drops them (omitempty): their owners lose the field itself too.
  if (next.metadata.finalizers?.length === 0) delete next.metadata.finalizers;
  if (next.metadata.ownerReferences?.length === 0) delete next.metadata.ownerReferences;
  if (manager) {
    next = state.hooks.updateManagedFields(
      { resource: info, operation: 'UPDATE', subresource: '', live, fieldManager: manager, fieldValidation: undefined, warnings: [], nowMs: state.now() },
      next,
    );
  }
  const meta = next.metadata;
  if (JSON.stringify(next) === JSON.stringify(live)) return;
  const namespaceHeld = info.group === '' && info.plural === 'namespaces' && (next.spec?.finalizers ?? []).length > 0;
  const gone = meta.deletionTimestamp && !meta.finalizers && (meta.deletionGracePeriodSeconds ?? 0) === 0 && !namespaceHeld;
  commit(state, info, gone ? 'DELETED' : 'MODIFIED', next, live);
}

const current = (state: ServerState, located: Located): Obj | undefined =>
  state.storage.store(storageKey(located.info)).objects.get(`${located.info.namespaced ? located.object.metadata.namespace : ''}/${located.object.metadata.name}`);

export function runControllers(state: ServerState): void {
  finishNamespaces(state);
  collectGarbage(state);
  releaseStorageObjects(state, updateMeta);
}

function finishNamespaces(state: ServerState): void {
  const namespaces = state.registry.byPath('', 'v1', 'namespaces')!;
  for (const ns of [...state.storage.store(storageKey(namespaces)).objects.values()]) {
    if (!ns.metadata.deletionTimestamp || !(ns.spec?.finalizers ?? []).includes('kubernetes')) continue;
    const name: string = ns.metadata.name;
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const located of everything(state)) {
      if (!located.info.namespaced || located.object.metadata.namespace !== name) continue;
      const resource = located.info.group ? `${located.info.plural}.${located.info.group}` : located.info.plural;
      remaining.set(resource, (remaining.get(resource) ?? 0) + 1);
      for (const f of located.object.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      if (!located.object.metadata.deletionTimestamp) removeOrMark(state, located.info, located.object, { propagationPolicy: 'Background' });
    }
    // Count again: what the deletes removed at once is gone; what finalizers hold remains.
    remaining.clear();
    finalizers.clear();
    for (const located of everything(state)) {
      if (!located.info.namespaced || located.object.metadata.namespace !== name) continue;
      const resource = located.info.group ? `${located.info.plural}.${located.info.group}` : located.info.plural;
      remaining.set(resource, (remaining.get(resource) ?? 0) + 1);
      for (const f of located.object.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    }
    const live = state.storage.store(storageKey(namespaces)).objects.get(`/${name}`)!;
    updateMeta(state, namespaces, live, (next) => {
      next.status = { ...next.status, conditions: namespaceConditions(state, live, remaining, finalizers) };
    });
    if (remaining.size > 0) continue;
    const conditioned = state.storage.store(storageKey(namespaces)).objects.get(`/${name}`)!;
    updateMeta(state, namespaces, conditioned, (next) => {
      next.spec.finalizers = next.spec.finalizers.filter((f: string) => f !== 'kubernetes');
    });
    const finalized = state.storage.store(storageKey(namespaces)).objects.get(`/${name}`);
    if (finalized && (finalized.metadata.finalizers ?? []).length === 0) commit(state, namespaces, 'DELETED', structuredClone(finalized), finalized);
  }
}

/** The conditions the namespace controller reports on a Terminating namespace. */
function namespaceConditions(state: ServerState, live: Obj, remaining: Map<string, number>, finalizers: Map<string, number>): Obj[] {
  const now = timestamp(state.now());
  const previous: Obj[] = live.status?.conditions ?? [];
  const condition = (type: string, status: string, reason: string, message: string): Obj => {
    const before = previous.find((c) => c.type === type);
    return { type, status, lastTransitionTime: before && before.status === status ? before.lastTransitionTime : now, reason, message };
  };
  const list = (counts: Map<string, number>) => [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => `${name} has ${n} resource instances`).join(', ');
  const finalizerList = [...finalizers].sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => `${name} in ${n} resource instances`).join(', ');
  return [
    condition('NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'),
    condition('NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'),
    condition('NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'),
    remaining.size > 0
      ? condition('NamespaceContentRemaining', 'True', 'SomeResourcesRemain', `Some resources are remaining: ${list(remaining)}`)
      : condition('NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'),
    finalizers.size > 0
      ? condition('NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', `Some content in the namespace has finalizers remaining: ${finalizerList}`)
      : condition('NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'),
  ];
}

type OwnerState = 'solid' | 'dangling' | 'waiting' | 'unknown';

/** Whether the owner a reference names exists with that uid (and how it is being deleted). */
function ownerState(state: ServerState, dependent: Located, ref: Obj): OwnerState {
  const info = state.registry.byKind(ref.apiVersion, ref.kind);
  if (!info) return 'unknown';
  const namespace = info.namespaced ? dependent.object.metadata.namespace : '';
  const owner = state.storage.store(storageKey(info)).objects.get(`${namespace ?? ''}/${ref.name}`);
  if (!owner || owner.metadata.uid !== ref.uid) return 'dangling';
  if (owner.metadata.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER)) return 'waiting';
  return 'solid';
}

function collectGarbage(state: ServerState): void {
  const all = everything(state);
  const dependentsOf = new Map<string, Located[]>();
  for (const located of all) {
    for (const ref of located.object.metadata.ownerReferences ?? []) {
      const list = dependentsOf.get(ref.uid) ?? [];
      list.push(located);
      dependentsOf.set(ref.uid, list);
    }
  }

  for (const owner of all) {
    const meta = owner.object.metadata;
    if (!meta.deletionTimestamp) continue;
    const finalizers: string[] = meta.finalizers ?? [];
    if (finalizers.includes(ORPHAN_FINALIZER)) {
      // Orphan: the dependents lose their reference to the owner, then the owner goes.
      for (const dependent of dependentsOf.get(meta.uid) ?? []) {
        const live = current(state, dependent);
        if (live) updateMeta(state, dependent.info, live, (next) => (next.metadata.ownerReferences = next.metadata.ownerReferences.filter((r: Obj) => r.uid !== meta.uid)), GC_MANAGER);
      }
      const live = current(state, owner);
      if (live) updateMeta(state, owner.info, live, (next) => (next.metadata.finalizers = next.metadata.finalizers.filter((f: string) => f !== ORPHAN_FINALIZER)), GC_MANAGER);
    }
  }

  for (const dependent of everything(state)) {
    const refs: Obj[] = dependent.object.metadata.ownerReferences ?? [];
    if (refs.length === 0) continue;
    const states = refs.map((ref) => ownerState(state, dependent, ref));
    if (states.includes('unknown') || !states.some((s) => s === 'dangling' || s === 'waiting')) continue;
    const live = current(state, dependent);
    if (!live) continue;
    if (states.includes('solid')) {
      const keep = refs.filter((_, i) => states[i] === 'solid').map((r) => r.uid);
      updateMeta(state, dependent.info, live, (next) => (next.metadata.ownerReferences = next.metadata.ownerReferences.filter((r: Obj) => keep.includes(r.uid))), GC_MANAGER);
      continue;
    }
    const ownFinalizers: string[] = live.metadata.finalizers ?? [];
    if (live.metadata.deletionTimestamp && !ownFinalizers.includes(FOREGROUND_FINALIZER)) continue;
    if (live.metadata.deletionTimestamp) continue;
    const hasDependents = (dependentsOf.get(live.metadata.uid) ?? []).length > 0;
    const policy = states.includes('waiting') && hasDependents ? 'Foreground' : ownFinalizers.includes(ORPHAN_FINALIZER) ? 'Orphan' : ownFinalizers.includes(FOREGROUND_FINALIZER) ? 'Foreground' : 'Background';
    removeOrMark(state, dependent.info, live, { propagationPolicy: policy });
  }

  for (const owner of everything(state)) {
    const meta = owner.object.metadata;
    if (!meta.deletionTimestamp || !(meta.finalizers ?? []).includes(FOREGROUND_FINALIZER)) continue;
    // The owner waits for the dependents that block its deletion; the others are deleted but not waited for.
    const blocking = everything(state).filter((d) => (d.object.metadata.ownerReferences ?? []).some((r: Obj) => r.uid === meta.uid && r.blockOwnerDeletion === true));
    if (blocking.length > 0) continue;
    const live = current(state, owner);
    if (live) updateMeta(state, owner.info, live, (next) => (next.metadata.finalizers = next.metadata.finalizers.filter((f: string) => f !== FOREGROUND_FINALIZER)), GC_MANAGER);
  }
}
