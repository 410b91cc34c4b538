/**
 * What decoding a built-in kind into its Go type and encoding it back does to an object,
 * done on the JSON: fields the type does not have are dropped (reported as `fieldValidation`
 * says), a value of the wrong JSON type is refused, `null` values vanish, and empty maps
 * and lists disappear (`omitempty`). Empty structs stay (`status: {}`). Then the kind's
 * conversion and defaults that every client sees (a Secret's `stringData` folded into
 * `data`, its `type` defaulting to `Opaque`).
 */
import { BUILTIN_FORMATS, builtinKindType, fieldType, resolve, type KindType, type TypeRef } from '../types/index.js';
import { TYPE_KEYWORDS } from '../types/schema.js';
import { BUILTIN_DEFAULTS } from './builtin-defaults.js';
import { formatted, type ValueFormat } from './builtin-formats.js';
import { badRequest } from './errors.js';
import { reportUnknownFields } from './unknown-fields.js';
import type { DecodedFrom, WriteContext } from './write-context.js';
import { apiVersionOf, type ResourceInfo } from './resources.js';
import { isObject, type Obj } from './storage.js';

/** What a decode found wrong: the unknown fields' paths, and the first value the decoder cannot read. */
interface Findings {
  unknown: string[];
  /** Go's error after `cannot be handled as a Kind: ` (`json: cannot unmarshal…`, `parsing time…`). */
  decodeError?: string;
}

/**
 * Normalizes `object` of a built-in kind in place of a typed round trip. A value of the wrong
 * JSON type (a number where a string belongs) is the decoder's 400, as Go's `json` words it;
 * timestamps and quantities are written as their Go types write them (builtin-formats.ts);
 * unknown fields are dropped and reported as `fieldValidation` says (unknown-fields.ts).
 * `from`: the request was a patch (Strict's answer quotes the patched object).
 */
export function decodeBuiltin(context: WriteContext, object: Obj, from?: DecodedFrom): Obj {
  const info = context.resource;
  const type = builtinKindType(apiVersionOf(info), info.kind);
  if (!type) return object;
  const findings: Findings = { unknown: [] };
  const out = walk(object, type.root, type, { at: '', goPath: '', typeName: String(type.root) }, findings) as Obj;
  if (findings.decodeError) throw badRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${findings.decodeError}`);
  reportUnknownFields(context, findings.unknown, from);
  convert[info.kind]?.(info, out);
  BUILTIN_DEFAULTS[`${apiVersionOf(info)}/${info.kind}`]?.(out);
  return out;
}

/**
 * Where the walk is: `at` the field path as fieldValidation names it (`spec.containers[0].image`),
 * `goPath` as Go's json names it (`spec.containers.image`), `typeName` the named type
 * (a Go struct) holding the value.
 */
interface Position {
  at: string;
  goPath: string;
  typeName: string;
}

/** The type name a reference names (`io.k8s.api.core.v1.Container`), if it names one. */
function namedType(ref: TypeRef): string | undefined {
  const name = typeof ref === 'string' ? ref : typeof ref === 'object' && 'ref' in ref ? ref.ref : undefined;
  return name === undefined || TYPE_KEYWORDS.has(name) ? undefined : name;
}

/** A field's value, or each value of a map or list field, in the form its Go type writes. */
function withFormat(format: ValueFormat, value: unknown, findings: Findings): unknown {
  if (Array.isArray(value)) return value.map((item) => withFormat(format, item, findings));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withFormat(format, item, findings)]));
  try {
    return formatted(format, value);
  } catch (error) {
    findings.decodeError ??= (error as Error).message;
    return value;
  }
}

function walk(value: unknown, ref: TypeRef, type: KindType, position: Position, findings: Findings): unknown {
  const resolved = resolve(ref, type.table);
  if (resolved.kind === 'scalar' && resolved.scalar === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    const struct = position.typeName.slice(position.typeName.lastIndexOf('.') + 1);
    findings.decodeError ??= `json: cannot unmarshal ${typeof value === 'number' ? 'number' : 'bool'} into Go struct field ${struct}.${position.goPath} of type string`;
    return value;
  }
  const here = namedType(ref) ?? position.typeName;
  if (resolved.kind === 'list' && Array.isArray(value)) {
    return value.map((item, i) => walk(item, resolved.type.list, type, { ...position, at: `${position.at}[${i}]`, typeName: namedType(resolved.type.list) ?? here }, findings));
  }
  if (resolved.kind !== 'map' || !isObject(value)) return value;
  const struct = resolved.type.fields !== undefined;
  const formats = struct ? BUILTIN_FORMATS[here] : undefined;
  const out: Obj = {};
  for (const [key, item] of Object.entries(value)) {
    const child = fieldType(resolved.type, key);
    const at = position.at === '' ? key : `${position.at}.${key}`;
    if (child === undefined) {
      findings.unknown.push(at);
      continue;
    }
    if (item === null && struct) continue;
    // Go's json names struct fields in its path, not map keys.
    const goPath = !struct ? position.goPath : position.goPath === '' ? key : `${position.goPath}.${key}`;
    let walked = walk(item, child, type, { at, goPath, typeName: here }, findings);
    const format = formats?.[key];
    if (format) walked = withFormat(format, walked, findings);
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
