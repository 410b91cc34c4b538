/**
 * GET of an object and of a collection: resourceVersion semantics (unset: the latest;
 * `0`: any; `N`: not older than N, or exactly N with `resourceVersionMatch=Exact` or with a
 * limit), label and field selectors, and paging with `limit`/`continue` over a consistent
 * snapshot, as etcd serves it, 410 Expired once the snapshot left the kept history.
 */
import { badRequest, expired, notFound, StatusError } from './errors.js';
import { encodeObject, type Representation } from './codec.js';
import { storageKey } from './registry.js';
import { apiVersionOf, groupResource, type ResourceInfo } from './resources.js';
import { fieldMatcher, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { liveObject, type Reply, type ServerState, type Target } from './state.js';
import { objectsAt, type Obj } from './storage.js';

export function getObject(state: ServerState, target: Target, representation: Representation): Reply {
  const live = liveObject(state, target.info, target.namespace, target.name!);
  if (!live) throw notFound(groupResource(target.info), target.name!);
  return { code: 200, body: encodeObject(target.info, live, representation) };
}

/** A matcher for the request's label and field selectors (400 for a malformed or unsupported one). */
export function selection(info: ResourceInfo, query: Record<string, string>): (object: Obj) => boolean {
  const labels = parseLabelSelector(query.labelSelector);
  const fields = fieldMatcher(parseFieldSelector(query.fieldSelector), info.selectableFields, info.fieldSelectorError);
  return (object) => labels(object.metadata.labels) && fields(object);
}

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

const TOKEN_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

function decodeToken(text: string): ContinueToken {
  try {
    const token = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as ContinueToken;
    if (token.v !== 'meta.k8s.io/v1' || typeof token.rv !== 'number' || typeof token.start !== 'string') throw new Error('bad');
    return token;
  } catch {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
}

const encodeToken = (token: ContinueToken): string => Buffer.from(JSON.stringify(token)).toString('base64');

export function listObjects(state: ServerState, target: Target, query: Record<string, string>, representation: Representation): Reply {
  const { info, namespace } = target;
  const matches = selection(info, query);
  const current = state.storage.revision();
  const store = state.storage.store(storageKey(info));
  const limit = query.limit ? Number(query.limit) : 0;
  if (query.continue && query.resourceVersion && query.resourceVersion !== '0') throw badRequest('specifying resource version is not allowed when using continue');
  if (query.resourceVersionMatch && !query.resourceVersion) throw badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  let snapshotRv = current;
  let start = '';
  if (query.continue) {
    const token = decodeToken(query.continue);
    snapshotRv = token.rv;
    start = token.start;
  } else if (query.resourceVersion && query.resourceVersion !== '0') {
    const rv = Number(query.resourceVersion);
    if (!Number.isInteger(rv) || rv < 0) throw badRequest(`invalid resource version: ${query.resourceVersion}`);
    const exact = query.resourceVersionMatch === 'Exact' || (limit > 0 && query.resourceVersionMatch !== 'NotOlderThan');
    if (rv > current) throw tooLarge(rv, current);
    if (exact) snapshotRv = rv;
  }
  const objects = objectsAt(store, snapshotRv, current);
  if (!objects) throw query.continue ? expired(TOKEN_EXPIRED) : expired('The resourceVersion for the provided list is too old.');
  const prefix = info.namespaced && namespace ? `${namespace}/` : '';
  const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && (start === '' || k >= start)).sort();
  const items: Obj[] = [];
  let next: string | undefined;
  let remaining = 0;
  for (const key of keys) {
    const object = objects.get(key)!;
    if (!matches(object)) continue;
    if (limit > 0 && items.length >= limit) {
      next ??= key;
      remaining++;
      continue;
    }
    items.push(object);
  }
  const metadata: Obj = { resourceVersion: String(snapshotRv) };
  // Custom resource lists are unstructured: an empty continue is written, not left out.
  if (next === undefined && info.crd) metadata.continue = '';
  if (next !== undefined) {
    metadata.continue = encodeToken({ v: 'meta.k8s.io/v1', rv: snapshotRv, start: next });
    if (!query.labelSelector && !query.fieldSelector) metadata.remainingItemCount = remaining;
  }
  if (representation === 'metadata') {
    return { code: 200, body: { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata, items: items.map((o) => encodeObject(info, o, 'metadata')) } };
  }
  const encoded = items.map((o) => {
    const copy = encodeObject(info, o, 'object');
    // Typed lists of built-in kinds leave the items' apiVersion and kind out; custom resource lists keep them.
    if (!info.crd) {
      delete copy.apiVersion;
      delete copy.kind;
    }
    return copy;
  });
  return { code: 200, body: { apiVersion: apiVersionOf(info), items: encoded, kind: info.listKind, metadata } };
}

/** A resourceVersion the server has not reached: the API server gives up waiting with 504. */
function tooLarge(rv: number, current: number): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Timeout: Too large resource version: ${rv}, current: ${current}`,
    reason: 'Timeout',
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: `Too large resource version` }], retryAfterSeconds: 1 },
    code: 504,
  });
}
