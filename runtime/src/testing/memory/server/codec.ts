/**
 * Decoding request bodies and encoding answers: the apiVersion/kind checks of the API
 * server's decoder, a version per request (a CRD's versions share storage; with conversion
 * `None` only `apiVersion` differs), and the content types the runtime asks for (JSON, and
 * `PartialObjectMetadata` for metadata-only informers).
 */
import { decodeCustomObject, pruneCustomObject, type CrdLike, type JsonObject } from '../../../internal/semantics/index.js';
import { badRequest, notAcceptable } from './errors.js';
import { storageVersion } from './registry.js';
import { apiVersionOf, type ResourceInfo } from './resources.js';
import type { Obj } from './storage.js';

/** Checks a body's type meta against the URL's resource and gives a fresh copy with metadata present. */
export function decodeBody(info: ResourceInfo, body: unknown): Obj {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body of the request must be a JSON object');
  const object = structuredClone(body) as Obj;
  const expected = apiVersionOf(info);
  if (info.crd && !object.kind) throw badRequest(`Object 'Kind' is missing in '${JSON.stringify(body)}'`);
  if (object.apiVersion !== undefined && object.apiVersion !== expected) {
    throw badRequest(`the API version in the data (${object.apiVersion}) does not match the expected API version (${expected})`);
  }
  if (object.kind !== undefined && object.kind !== info.kind) {
    if (info.crd) throw badRequest(`the kind in the data (${object.kind}) does not match the expected kind (${info.kind})`);
    // A built-in body of another kind fails converting into the internal type of the URL's kind.
    const internal = info.group === '' ? 'core' : info.group.split('.')[0];
    throw badRequest(`${object.kind} in version "${info.version}" cannot be handled as a ${info.kind}: converting (${info.version}.${object.kind}) to (${internal}.${info.kind}): unknown conversion`);
  }
  object.apiVersion = expected;
  object.kind = info.kind;
  if (object.metadata === undefined || object.metadata === null) object.metadata = {};
  dropEmptyMetadata(object.metadata);
  return object;
}

/** ObjectMeta's lists and maps that Go serializes with `omitempty`. */
const OMITTED_WHEN_EMPTY = ['finalizers', 'labels', 'annotations', 'ownerReferences'];

/**
 * The API server decodes metadata into ObjectMeta (custom resources too: their metadata is
 * coerced through it), so an empty `finalizers: []` or `labels: {}` is absent afterwards:
 * a JSON patch removing the last finalizer leaves no list for the field manager to keep.
 */
function dropEmptyMetadata(meta: Obj): void {
  if (typeof meta !== 'object' || Array.isArray(meta)) return;
  for (const key of OMITTED_WHEN_EMPTY) {
    const value = meta[key];
    if (Array.isArray(value) ? value.length === 0 : value !== null && typeof value === 'object' && Object.keys(value).length === 0) delete meta[key];
  }
}

/** How the client wants objects: whole, or `PartialObjectMetadata`. */
export type Representation = 'object' | 'metadata';

const JSON_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/**
 * Picks the representation from the Accept header, in the client's order: plain JSON
 * (or `*\/*`), or `as=PartialObjectMetadata` (`…List` for lists); anything else the memory
 * cluster does not produce (Table, protobuf, YAML) is skipped, and nothing left is 406.
 */
export function negotiate(accept: string | undefined, list: boolean): Representation {
  if (!accept) return 'object';
  for (const entry of accept.split(',')) {
    const [type, ...params] = entry.split(';').map((p) => p.trim());
    const args = Object.fromEntries(params.map((p) => p.split('=').map((s) => s.trim())));
    if (type !== 'application/json' && type !== '*/*' && type !== 'application/*') continue;
    if (args.as === undefined) return 'object';
    const wanted = list ? 'PartialObjectMetadataList' : 'PartialObjectMetadata';
    if (args.as === wanted && args.g === 'meta.k8s.io' && (args.v === 'v1' || args.v === 'v1beta1')) return 'metadata';
  }
  throw notAcceptable(JSON_TYPES);
}

/**
 * The stored object as the request's version shows it, whole or as `PartialObjectMetadata`.
 * A custom object is decoded from storage as apiextensions-apiserver does: pruned and
 * defaulted by the storage version's schema (a default added to the CRD later shows at
 * once), then converted to the request's version and pruned by its schema (a field only
 * another version has is not shown).
 */
export function encodeObject(info: ResourceInfo, stored: Obj, representation: Representation): Obj {
  if (representation === 'metadata') return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: structuredClone(stored.metadata) };
  if (!info.crd) return { ...structuredClone(stored), apiVersion: apiVersionOf(info) };
  let decoded = decodedReads.get(stored);
  if (decoded?.crd !== info.crd || decoded.version !== info.version) {
    const crd = info.crd as CrdLike;
    const storage = storageVersion(info);
    // Read from storage: pruned and defaulted by the storage version's schema; converted to
    // another version, pruned by that one's (its defaults are not applied: a field only the
    // request's version defaults is not shown).
    const fromStorage = decodeCustomObject({ crd, version: storage, object: { ...stored, apiVersion: `${info.group}/${storage}` } as JsonObject }).object;
    const object = (storage === info.version ? fromStorage : pruneCustomObject({ crd, version: info.version, object: { ...fromStorage, apiVersion: apiVersionOf(info) } })) as Obj;
    decodedReads.set(stored, (decoded = { crd: info.crd, version: info.version, object }));
  }
  return structuredClone(decoded.object);
}

/**
 * Each stored object's last decoded form, by CRD (a changed CRD is a new object) and version:
 * a stored object is never changed in place (a write stores a new one), so lists and watches
 * decode it once, not on every read.
 */
const decodedReads = new WeakMap<Obj, { crd: object; version: string; object: Obj }>();

/**
 * Go's `json.Marshal` of a decoded JSON value (map keys sorted; `<`, `>`, `&`, U+2028 and
 * U+2029 escaped), as the API server quotes an object in a message. `typed`: the value is a
 * built-in kind's Go struct, whose fields keep their order (the stored object's).
 */
export function goJson(value: unknown, typed = false): string {
  const sorted = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sorted);
    if (item === null || typeof item !== 'object') return item;
    return Object.fromEntries(Object.keys(item).sort().map((key) => [key, sorted((item as Record<string, unknown>)[key])]));
  };
  return JSON.stringify(typed ? value : sorted(value)).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
