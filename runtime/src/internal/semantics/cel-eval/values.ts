/**
 * JSON values as the API server hands them to CEL: integers (schema `integer`, and whole
 * numbers where the schema does not say) as CEL `int` (bigint), schema `number` as `double`,
 * property names escaped as Kubernetes does (`a-b` is `a__dash__b`), and the `metadata` of the
 * root and of embedded resources reduced to `name` and `generateName`, the only fields rules see,
 * and strings of format `date-time`/`date`, `duration` and `byte` as CEL timestamps, durations
 * and bytes (apiserver's schema-to-CEL type mapping).
 *
 * @module
 */
import { Environment } from '@marcbachmann/cel-js';
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
  if (typeof value === 'string' && schema?.type === 'string' && schema.format !== undefined) return typedString(value, schema.format);
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

let conversions: { timestamp: (text: string) => unknown; duration: (text: string) => unknown } | undefined;

/**
 * A string of a format CEL types as timestamp, duration or bytes, converted as the API server
 * does; a value that does not parse stays a string (the schema's format check refuses it).
 */
function typedString(value: string, format: string): unknown {
  conversions ??= (() => {
    const env = new Environment().registerVariable('x', 'string');
    const timestamp = env.parse('timestamp(x)');
    const duration = env.parse('duration(x)');
    return { timestamp: (x: string) => timestamp({ x }), duration: (x: string) => duration({ x }) };
  })();
  try {
    switch (format) {
      case 'date-time':
        return conversions.timestamp(value.replace(/^(\d{4}-\d{2}-\d{2})[t ]/, '$1T').replace(/z$/, 'Z'));
      case 'date':
        return conversions.timestamp(`${value}T00:00:00Z`);
      case 'duration':
        return conversions.duration(value);
      case 'byte':
        return /^[A-Za-z0-9+/]*={0,2}$/.test(value) ? new Uint8Array(Buffer.from(value, 'base64')) : value;
    }
  } catch {
    return value;
  }
  return value;
}
