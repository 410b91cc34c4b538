import type { Kind } from '../api/kind.js';

type Gvk = Pick<Kind, 'group' | 'version' | 'kind'>;

function suffix(kind: Gvk): string {
  return `${kind.group.replaceAll('.', '-')}-${kind.version}-${kind.kind.toLowerCase()}`;
}

/** controller-runtime's path of a kind's defaulting webhook, e.g. `/mutate-shop-example-com-v1-bookstore`. */
export function mutatePath(kind: Gvk): string {
  return `/mutate-${suffix(kind)}`;
}

/** controller-runtime's path of a kind's validating webhook, e.g. `/validate-shop-example-com-v1-bookstore`. */
export function validatePath(kind: Gvk): string {
  return `/validate-${suffix(kind)}`;
}

/** The one path every conversion webhook of a manager is served on. */
export const CONVERT_PATH = '/convert';
