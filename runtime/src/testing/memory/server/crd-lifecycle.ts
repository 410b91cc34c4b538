/**
 * What apiextensions-apiserver's controllers do when a CustomResourceDefinition is
 * written or deleted: serve its versions, accept its names and mark it Established (a
 * status update, as its naming controller writes), and on deletion remove its objects.
 */
import type { ResourceInfo } from './resources.js';
import { storageKey } from './registry.js';
import { commit, type ServerState } from './state.js';
import type { Obj } from './storage.js';
import { timestamp } from './strategy.js';
import { acceptNames, defaultedNames, type CrdNames } from '../../../internal/crd-names/index.js';

const isCRD = (info: ResourceInfo): boolean => !info.crd && info.group === 'apiextensions.k8s.io' && info.kind === 'CustomResourceDefinition';

/**
 * After a CRD is stored: accept its names as the naming controller does (against the
 * accepted names of the group's other CRDs) and, when they are accepted, (re)register its
 * resources and establish it. A CRD with a name another holds gets `NamesAccepted=False`
 * and is neither served nor established, as on the API server.
 */
export function onCustomResourceDefinitionWritten(state: ServerState, info: ResourceInfo, crd: Obj): void {
  if (!isCRD(info) || crd.metadata.deletionTimestamp) return;
  const others = [...state.storage.store(storageKey(info)).objects.values()]
    .filter((other) => other.spec.group === crd.spec.group && other.metadata.name !== crd.metadata.name && other.status?.acceptedNames?.plural)
    .map((other): CrdNames => {
      const held = other.status.acceptedNames;
      return { kind: held.kind ?? '', listKind: held.listKind ?? '', plural: held.plural, singular: held.singular ?? '', shortNames: held.shortNames };
    });
  const { names: acceptedNames, conflict } = acceptNames(defaultedNames(crd.spec.names), crd.status?.acceptedNames, others);
  const wasEstablished = (crd.status?.conditions ?? []).some((c: Obj) => c.type === 'Established' && c.status === 'True');
  if (!conflict) state.registry.addCRD(crd as never);
  const storage = crd.spec.versions.find((v: Obj) => v.storage)?.name;
  const stored: string[] = crd.status?.storedVersions ?? [];
  const storedVersions = storage && !stored.includes(storage) ? [...stored, storage] : stored;
  const now = timestamp(state.now());
  const conditions: Obj[] = [
    conflict
      ? { type: 'NamesAccepted', status: 'False', reason: conflict.reason, message: conflict.message, lastTransitionTime: now }
      : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: now },
    conflict && !wasEstablished
      ? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted', lastTransitionTime: now }
      : { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: now },
  ];
  const keep = (crd.status?.conditions ?? []).filter((c: Obj) => c.type !== 'NamesAccepted' && c.type !== 'Established');
  for (const kept of (crd.status?.conditions ?? []) as Obj[]) {
    const same = conditions.find((c) => c.type === kept.type);
    if (same && same.status === kept.status) same.lastTransitionTime = kept.lastTransitionTime;
  }
  conditions.push(...keep);
  const status = { ...crd.status, acceptedNames, conditions, storedVersions };
  if (JSON.stringify(status) === JSON.stringify(crd.status)) return;
  const next = structuredClone(crd);
  next.status = status;
  commit(state, info, 'MODIFIED', next, crd);
}

/** After a CRD is gone: its objects go (with DELETED events), and its resources stop being served. */
export function onCustomResourceDefinitionDeleted(state: ServerState, info: ResourceInfo, crd: Obj): void {
  if (!isCRD(info)) return;
  const served = state.registry.all().find((r) => r.crd && r.group === crd.spec.group && r.plural === crd.spec.names.plural);
  if (served) {
    const store = state.storage.store(storageKey(served));
    for (const object of [...store.objects.values()]) {
      const gone = structuredClone(object);
      commit(state, served, 'DELETED', gone, object);
    }
  }
  state.registry.removeCRD(crd.spec.group, crd.spec.names.plural);
  // The names it held are free: the group's CRDs whose names were refused are accepted again, as the naming controller requeues them.
  for (const other of [...state.storage.store(storageKey(info)).objects.values()]) {
    const refused = (other.status?.conditions ?? []).some((c: Obj) => c.type === 'NamesAccepted' && c.status === 'False');
    if (refused && other.spec.group === crd.spec.group && other.metadata.name !== crd.metadata.name) onCustomResourceDefinitionWritten(state, info, other);
  }
}
