/**
 * JSON values as the API server hands them to CEL: integers (schema `integer`, and whole
 * numbers where the schema does not say) as CEL `int` (bigint), schema `number` as `double`,
 * property names escaped as Kubernetes does (`a-b` is `a__dash__b`), and the `metadata` of the
 * root and of embedded resources reduced to `name` and `generateName`, the only fields rules see.
 *
 * @module
 */
import { isObject, type Json, type SchemaNode } from '../types.js';

const reserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** A property's name in CEL, as Kubernetes escapes it. */
export function celName(name: string): string {
  if (reserved.has(name)) return `__${name}__`;
  return name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
}

/** `value` converted for CEL; `resource` for the root and embedded resources. */
export function toCel(value: Json | undefined, schema: SchemaNode | undefined, resource = false): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return schema?.type === 'number' || !Number.isInteger(value) ? value : BigInt(value);
  if (Array.isArray(value)) return value.map((item) => toCel(item, schema?.items));
  if (!isObject(value)) return value;
  const isResource = resource || schema?.['x-kubernetes-embedded-resource'] === true;
  const additional = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    if (isResource && name === 'metadata' && isObject(child)) {
      out.metadata = Object.fromEntries(['name', 'generateName'].filter((k) => k in child).map((k) => [k, child[k]]));
      continue;
    }
    // A map's keys are data, an object's are field names CEL escapes.
    const key = additional ? name : celName(name);
    out[key] = toCel(child, schema?.properties?.[name] ?? additional, false);
  }
  return out;
}
