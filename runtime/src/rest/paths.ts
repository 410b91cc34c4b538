import type { Kind } from '../api/kind.js';

/**
 * The REST path of a kind's collection or of one object:
 * `/api/v1/namespaces/ns/pods/name/status`, `/apis/group/version/plural` (all namespaces).
 */
export function resourcePath(kind: Kind, namespace?: string, name?: string, subresource?: string): string {
  let path = kind.group === '' ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
  if (kind.namespaced && namespace) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${kind.plural}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (subresource) path += `/${subresource}`;
  return path;
}

/** `kind` for messages, e.g. `Pod` or `DemoVolume.storage.example.com`. */
export function kindLabel(kind: Kind): string {
  return kind.group === '' ? kind.kind : `${kind.kind}.${kind.group}`;
}

/**
 * The namespace a request about `name` goes to: required for a namespaced kind (a clear
 * error instead of a request to the wrong URL), ignored for a cluster-scoped one, as
 * controller-runtime does.
 */
export function requireScope(kind: Kind, name: string | undefined, namespace: string | undefined): string | undefined {
  if (!kind.namespaced) return undefined;
  if (!namespace) {
    throw new Error(`${kindLabel(kind)} ${JSON.stringify(name ?? '')} is namespaced: give its namespace`);
  }
  return namespace;
}
