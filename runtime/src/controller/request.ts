import { objectKey } from '../object.js';

/** What a reconcile is asked to look at: the object's namespace (if namespaced) and name. */
export interface Request {
  namespace?: string;
  name: string;
}

/** The work-queue key of `request`: `namespace/name`, or `name`. */
export function keyOf(request: Request): string {
  return objectKey(request.namespace, request.name);
}

/** The inverse of {@link keyOf}; names and namespaces never contain `/`. */
export function requestOf(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
