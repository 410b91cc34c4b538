/** What every handler of the memory API server shares. */
import type { PipelineHooks } from './hooks.js';
import type { Registry } from './registry.js';
import { storageKey, storageVersion } from './registry.js';
import type { ResourceInfo } from './resources.js';
import { apiVersionOf } from './resources.js';
import { objectKey, type Change, type ChangeType, type Obj, type Storage } from './storage.js';

export interface ServerState {
  storage: Storage;
  registry: Registry;
  hooks: PipelineHooks;
  /** Milliseconds since the epoch, from the cluster's clock. */
  now(): number;
  /** Runs the controllers the API server relies on (garbage collector, namespace controller) after a write. */
  wake(): void;
}

/** What a request addresses: a resource, and within it a namespace, an object, a subresource. */
export interface Target {
  info: ResourceInfo;
  namespace: string | undefined;
  name: string | undefined;
  subresource: '' | 'status';
}

/** An answer: HTTP code and JSON body. */
export interface Reply {
  code: number;
  body: unknown;
  warnings?: string[];
}

export function keyOf(info: ResourceInfo, namespace: string | undefined, name: string): string {
  return objectKey(info.namespaced ? namespace : undefined, name);
}

export function liveObject(state: ServerState, info: ResourceInfo, namespace: string | undefined, name: string): Obj | undefined {
  return state.storage.store(storageKey(info)).objects.get(keyOf(info, namespace, name));
}

/** Stores a change (the object in its storage version) and wakes the controllers. */
/** ObjectMeta's fields in the order the API server writes them (Go's struct order). */
const METADATA_ORDER = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

function orderMetadata(object: Obj): void {
  const meta = object.metadata;
  // Its place is kept for the resourceVersion storage is about to set.
  if (!('resourceVersion' in meta)) meta.resourceVersion = '';
  const ordered: Obj = {};
  for (const key of METADATA_ORDER) if (key in meta) ordered[key] = meta[key];
  for (const key of Object.keys(meta)) if (!(key in ordered)) ordered[key] = meta[key];
  object.metadata = ordered;
}

export function commit(state: ServerState, info: ResourceInfo, type: ChangeType, object: Obj, previous: Obj | undefined): Change {
  orderMetadata(object);
  if (info.crd) object.apiVersion = apiVersionOf({ group: info.group, version: storageVersion(info) });
  const change = state.storage.write(storageKey(info), keyOf(info, object.metadata.namespace, object.metadata.name), type, object, previous);
  state.wake();
  return change;
}
