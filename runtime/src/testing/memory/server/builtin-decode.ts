/**
 * What decoding a built-in kind into its Go type and encoding it back does to an object,
 * done on the JSON: fields the type does not have are dropped (each a warning, as the API
 * server's default `fieldValidation=Warn` answers), `null` values vanish, and empty maps
 * and lists disappear (`omitempty`). Empty structs stay (`status: {}`). Then the kind's
 * conversion and defaults that every client sees (a Secret's `stringData` folded into
 * `data`, its `type` defaulting to `Opaque`).
 */
import { builtinKindType, fieldType, resolve, type KindType, type TypeRef } from '../types/index.js';
import { BUILTIN_DEFAULTS } from './builtin-defaults.js';
import { apiVersionOf, type ResourceInfo } from './resources.js';
import type { Obj } from './storage.js';

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Normalizes `object` of a built-in kind in place of a typed round trip; `warnings` gets one per dropped unknown field. */
export function decodeBuiltin(info: ResourceInfo, object: Obj, warnings: string[]): Obj {
  const type = builtinKindType(apiVersionOf(info), info.kind);
  if (!type) return object;
  const out = walk(object, type.root, type, '', warnings) as Obj;
  convert[info.kind]?.(info, out);
  BUILTIN_DEFAULTS[`${apiVersionOf(info)}/${info.kind}`]?.(out);
  return out;
}

function walk(value: unknown, ref: TypeRef, type: KindType, path: string, warnings: string[]): unknown {
  const resolved = resolve(ref, type.table);
  if (resolved.kind === 'list' && Array.isArray(value)) return value.map((item, i) => walk(item, resolved.type.list, type, `${path}[${i}]`, warnings));
  if (resolved.kind !== 'map' || !isObject(value)) return value;
  const struct = resolved.type.fields !== undefined;
  const out: Obj = {};
  for (const [key, item] of Object.entries(value)) {
    const child = fieldType(resolved.type, key);
    const at = path === '' ? key : `${path}.${key}`;
    if (child === undefined) {
      warnings.push(`unknown field "${at}"`);
      continue;
    }
    if (item === null && struct) continue;
    const walked = walk(item, child, type, at, warnings);
    if (struct && isEmptyCollection(walked, child, type)) continue;
    out[key] = walked;
  }
  return out;
}

/** An empty map (not a struct) or an empty list: `omitempty` leaves it out. */
function isEmptyCollection(value: unknown, ref: TypeRef, type: KindType): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (!isObject(value) || Object.keys(value).length > 0) return false;
  const resolved = resolve(ref, type.table);
  // Deduced values stand for an empty struct (or free-form JSON), which stays; a typed map goes.
  return resolved.kind === 'map' && resolved.type.fields === undefined && resolved.type.values !== 'deduced';
}

/** Per-kind conversion and defaulting the API server applies on decode. */
const convert: Record<string, (info: ResourceInfo, object: Obj) => void> = {
  Secret(info, object) {
    if (info.group !== '') return;
    if (isObject(object.stringData)) {
      const data: Obj = { ...object.data };
      for (const [key, text] of Object.entries(object.stringData)) data[key] = Buffer.from(String(text), 'utf8').toString('base64');
      object.data = data;
    }
    delete object.stringData;
    object.type ??= 'Opaque';
  },
};
