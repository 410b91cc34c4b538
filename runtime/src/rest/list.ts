import { apiVersionOf, type Kind } from '../api/kind.js';
import type { KubeObject } from '../object.js';
import { isGone } from './errors.js';
import { resourcePath } from './paths.js';
import type { Transport } from './transport.js';

/** What one complete list returned: the items and the resource version to watch from. */
export interface ListResult<T> {
  items: T[];
  resourceVersion: string;
}

export interface ListRequest {
  namespace?: string;
  /** A label selector in the API's syntax, e.g. `app=web,tier=db`. */
  labelSelector?: string;
  /** A field selector in the API's syntax, e.g. `type=kubernetes.io/tls`. */
  fieldSelector?: string;
  /**
   * Server-side sharding (Kubernetes' alpha `ShardedListAndWatch`, KEP-5866): e.g.
   * `shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')`. An API
   * server without the feature gate ignores it and lists everything.
   */
  shardSelector?: string;
  /** Items as `PartialObjectMetadata` (apiVersion, kind and metadata only). */
  metadataOnly?: boolean;
  signal?: AbortSignal;
  /** See `HttpRequest.precondition`. */
  precondition?: () => void;
  /** See `HttpRequest.ownBackoff`. */
  ownBackoff?: boolean;
  /** Called after each page with the objects received so far (a large list's progress). */
  onPage?: (objects: number) => void;
}

interface ListBody<T> {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: T[];
}

const PAGE_SIZE = 500;
/** What the API server answers with a `PartialObjectMetadataList` instead of full objects. */
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
/** The same for single objects and watch events. */
export const METADATA_ONLY = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
/** A continue token expires when etcd compacts past it; a fresh list starts over. */
const MAX_FRESH_STARTS = 3;

/**
 * Lists every object of `kind` in pages of 500, the way client-go's pager does, so a
 * large collection never arrives as one huge response. Items get `apiVersion` and `kind`
 * (the API server leaves them out of built-in list items) so every object is
 * self-describing; nothing else is copied.
 */
export async function listAll<T extends KubeObject>(transport: Transport, kind: Kind<T>, request: ListRequest = {}): Promise<ListResult<T>> {
  const path = resourcePath(kind, request.namespace);
  const apiVersion = apiVersionOf(kind);
  for (let start = 1; ; start++) {
    const items: T[] = [];
    let token: string | undefined;
    try {
      for (;;) {
        const page = await transport.request<ListBody<T>>({
          method: 'GET',
          path,
          query: { limit: PAGE_SIZE, continue: token, labelSelector: request.labelSelector, fieldSelector: request.fieldSelector, shardSelector: request.shardSelector },
          accept: request.metadataOnly ? METADATA_LIST : undefined,
          signal: request.signal,
          precondition: request.precondition,
          ownBackoff: request.ownBackoff,
        });
        for (const item of page.items ?? []) {
          // Metadata-only items say `meta.k8s.io/v1 PartialObjectMetadata`: keep them self-describing as the kind listed.
          if (request.metadataOnly || !item.apiVersion) item.apiVersion = apiVersion;
          if (request.metadataOnly || !item.kind) item.kind = kind.kind;
          items.push(item);
        }
        token = page.metadata?.continue || undefined;
        if (token) request.onPage?.(items.length);
        if (!token) return { items, resourceVersion: page.metadata?.resourceVersion ?? '' };
      }
    } catch (error) {
      if (!(token && isGone(error)) || start >= MAX_FRESH_STARTS) throw error;
    }
  }
}

/** `{ app: 'web', tier: 'db' }` as the selector `app=web,tier=db`. */
export function labelSelector(labels: Record<string, string> | undefined): string | undefined {
  if (!labels) return undefined;
  const pairs = Object.entries(labels).map(([key, value]) => `${key}=${value}`);
  return pairs.length === 0 ? undefined : pairs.join(',');
}
