/**
 * JSON merge patch (RFC 7386) and JSON patch (RFC 6902), applied to the live object's
 * JSON as the API server's patch handler does, with its answers for bad patches.
 */
import { badRequest, StatusError } from './errors.js';

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** RFC 7386: objects merge recursively, `null` removes, anything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonType(patch)} into Go value of type map[string]interface {}`);
  return mergeObject(target, patch);
}

/** The JSON type name Go's decoder prints. */
function jsonType(value: Json): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

function mergeObject(target: Json, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergeObject(out[key], value);
  }
  return out;
}

/**
 * The 422 the patch handler answers when a JSON patch cannot be applied
 * (`NewGenericServerResponse(422, ...)`): a generic message, the reason in a cause.
 */
function patchFailed(message: string): StatusError {
  void message; // The API server keeps the reason to itself: its Status has empty details.
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: {},
    code: 422,
  });
}

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: Json;
}

/** RFC 6902 on a copy of `document`; a malformed patch is 400, one that does not apply 422. */
export function jsonPatch(document: Json, patch: Json): Json {
  if (!Array.isArray(patch)) throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonType(patch)} into Go value of type []handlers.jsonPatchOp`);
  let doc = structuredClone(document);
  for (const raw of patch as Operation[]) {
    if (!isObject(raw) || typeof raw.op !== 'string') throw badRequest('Unexpected kind: unknown');
    const op = raw as Operation;
    switch (op.op) {
      case 'add':
        doc = add(doc, pointer(op.path), structuredClone(op.value), op.path);
        break;
      case 'remove':
        doc = remove(doc, pointer(op.path), op.path).doc;
        break;
      case 'replace': {
        const removed = remove(doc, pointer(op.path), op.path, 'replace');
        doc = add(removed.doc, pointer(op.path), structuredClone(op.value), op.path);
        break;
      }
      case 'move': {
        const removed = remove(doc, pointer(op.from ?? ''), op.from ?? '', 'move');
        doc = add(removed.doc, pointer(op.path), removed.value, op.path);
        break;
      }
      case 'copy':
        doc = add(doc, pointer(op.path), structuredClone(get(doc, pointer(op.from ?? ''), op.from ?? '', 'copy')), op.path);
        break;
      case 'test': {
        const actual = get(doc, pointer(op.path), op.path, 'test');
        if (JSON.stringify(sortKeys(actual)) !== JSON.stringify(sortKeys(op.value))) throw patchFailed(`testing value ${op.path} failed: test failed`);
        break;
      }
      default:
        throw patchFailed(`Unexpected kind: ${op.op}`);
    }
  }
  return doc;
}

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isObject(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  return value;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw patchFailed(`add operation does not apply: doc is missing path: "${path}": missing value`);
  return path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: Json, parts: string[], path: string, op: string): Json {
  let node = doc;
  for (const part of parts.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node)) node = node[part];
    else node = undefined;
    if (node === undefined) throw patchFailed(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  }
  return node;
}

function add(doc: Json, parts: string[], value: Json, path: string): Json {
  if (parts.length === 0) return value;
  const parent = parentOf(doc, parts, path, 'add');
  const last = parts[parts.length - 1]!;
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) throw patchFailed(`add operation does not apply: doc is missing path: "${path}": missing value`);
    parent.splice(index, 0, value);
  } else if (isObject(parent)) parent[last] = value;
  else throw patchFailed(`add operation does not apply: doc is missing path: "${path}": missing value`);
  return doc;
}

function remove(doc: Json, parts: string[], path: string, op = 'remove'): { doc: Json; value: Json } {
  if (parts.length === 0) return { doc: undefined, value: doc };
  const parent = parentOf(doc, parts, path, op);
  const last = parts[parts.length - 1]!;
  if (Array.isArray(parent)) {
    const index = Number(last);
    if (!Number.isInteger(index) || index < 0 || index >= parent.length) throw patchFailed(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    return { doc, value: parent.splice(index, 1)[0] };
  }
  if (isObject(parent) && Object.hasOwn(parent, last)) {
    const value = parent[last];
    delete parent[last];
    return { doc, value };
  }
  throw patchFailed(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
}

function get(doc: Json, parts: string[], path: string, op: string): Json {
  let node = doc;
  for (const part of parts) {
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node)) node = node[part];
    else node = undefined;
    if (node === undefined) throw patchFailed(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  }
  return node;
}
