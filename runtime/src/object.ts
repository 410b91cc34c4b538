import type { ObjectMeta } from './api/index.js';

/** What every Kubernetes object has: the minimum the runtime relies on. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/** `namespace/name`, or `name` for cluster-scoped objects: the work queue's key. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}
