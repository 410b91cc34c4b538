/**
 * Storage object in-use protection, as kube-apiserver and kube-controller-manager do it
 * together: the StorageObjectInUseProtection admission plugin gives every new
 * PersistentVolumeClaim the `kubernetes.io/pvc-protection` finalizer and every new
 * PersistentVolume `kubernetes.io/pv-protection`; the pvc-protection and pv-protection
 * controllers remove them once the object is being deleted and nothing uses it (no Pod of
 * its namespace mounts the claim; the volume is not Bound).
 */
import { storageKey } from './registry.js';
import type { ResourceInfo } from './resources.js';
import type { ServerState } from './state.js';
import type { Obj } from './storage.js';

const PVC_PROTECTION = 'kubernetes.io/pvc-protection';
const PV_PROTECTION = 'kubernetes.io/pv-protection';

/** The finalizer the admission plugin adds on create of `info`'s kind, if any (a subresource is never admitted). */
function protectionFinalizer(info: ResourceInfo): string | undefined {
  if (info.group !== '') return undefined;
  if (info.kind === 'PersistentVolumeClaim') return PVC_PROTECTION;
  if (info.kind === 'PersistentVolume') return PV_PROTECTION;
  return undefined;
}

/**
 * The admission plugin's mutation of a new object: the kind's protection finalizer appended
 * when missing.
 *
 * @example
 * admitStorageObject(claims, claim); // claim.metadata.finalizers: ['kubernetes.io/pvc-protection']
 */
export function admitStorageObject(info: ResourceInfo, object: Obj): void {
  const finalizer = protectionFinalizer(info);
  if (!finalizer) return;
  const finalizers: string[] = object.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) object.metadata.finalizers = [...finalizers, finalizer];
}

/** Writes `change` to an object the way a controller's update does (the caller's `updateMeta`). */
export type MetaUpdate = (state: ServerState, info: ResourceInfo, live: Obj, change: (next: Obj) => void, manager?: string) => void;

function release(state: ServerState, info: ResourceInfo, finalizer: string, inUse: (object: Obj) => boolean, update: MetaUpdate): void {
  for (const object of [...state.storage.store(storageKey(info)).objects.values()]) {
    const meta = object.metadata;
    if (!meta.deletionTimestamp || !(meta.finalizers ?? []).includes(finalizer) || inUse(object)) continue;
    update(state, info, object, (next) => (next.metadata.finalizers = next.metadata.finalizers.filter((f: string) => f !== finalizer)), 'kube-controller-manager');
  }
}

/** The pvc-protection and pv-protection controllers' pass over claims and volumes being deleted. */
export function releaseStorageObjects(state: ServerState, update: MetaUpdate): void {
  const claims = state.registry.byPath('', 'v1', 'persistentvolumeclaims')!;
  const volumes = state.registry.byPath('', 'v1', 'persistentvolumes')!;
  const pods = state.registry.byPath('', 'v1', 'pods')!;
  const mounted = (claim: Obj) =>
    [...state.storage.store(storageKey(pods)).objects.values()].some(
      (pod) => pod.metadata.namespace === claim.metadata.namespace && (pod.spec?.volumes ?? []).some((v: Obj) => v.persistentVolumeClaim?.claimName === claim.metadata.name),
    );
  release(state, claims, PVC_PROTECTION, mounted, update);
  release(state, volumes, PV_PROTECTION, (volume) => volume.status?.phase === 'Bound', update);
}
