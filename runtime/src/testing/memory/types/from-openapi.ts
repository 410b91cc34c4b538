import type { ListType, MapType, PatchInfo, RefType, TypeRef } from './schema.js';

/** The parts of an OpenAPI v3 schema (or a CRD's JSONSchemaProps) the type conversion reads. */
export interface OpenApiSchema {
  type?: string;
  format?: string;
  $ref?: string;
  allOf?: OpenApiSchema[];
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: OpenApiSchema | boolean;
  items?: OpenApiSchema;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  default?: unknown;
}

/**
 * The API server hard-codes these two as untyped scalars (kube-openapi's schemaconv): a
 * Quantity is a string or a number, a RawExtension any JSON, each owned as one field.
 */
export const UNTYPED_DEFINITIONS = new Set(['io.k8s.apimachinery.pkg.api.resource.Quantity', 'io.k8s.apimachinery.pkg.runtime.RawExtension']);

/**
 * Converts one schema to a {@link TypeRef} the way the API server's type converter does
 * (kube-openapi schemaconv): `$ref`s (also inside a one-element `allOf`) stay named;
 * `x-kubernetes-preserve-unknown-fields` makes every object below it accept deduced keys.
 * `refName` maps a `$ref` to the table's name.
 */
export function toTypeRef(schema: OpenApiSchema, preserveUnknown = false): TypeRef {
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
  if (ref !== undefined) return namedRef(ref.slice(ref.lastIndexOf('/') + 1), schema);
  const preserve = preserveUnknown || schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (schema['x-kubernetes-int-or-string'] === true) return 'any';
  switch (schema.type) {
    case undefined:
    case '':
      return schema.properties ? objectType(schema, preserve) : 'deduced';
    case 'object':
      return objectType(schema, preserve);
    case 'array':
      return listType(schema, preserve);
    case 'string':
      // kube-openapi's schemaconv types a formatted string (a date-time) as an untyped scalar.
      return schema.format === undefined || schema.format === '' || schema.format === 'byte' ? 'string' : 'untyped';
    case 'integer':
    case 'number':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    default:
      return 'scalar';
  }
}

function namedRef(name: string, schema: OpenApiSchema): TypeRef {
  if (UNTYPED_DEFINITIONS.has(name)) return 'any';
  const mapType = schema['x-kubernetes-map-type'];
  const patch = patchInfo(schema);
  if (mapType !== 'atomic' && mapType !== 'granular' && Object.keys(patch).length === 0) return name;
  const out: RefType = { ref: name, ...patch };
  if (mapType === 'atomic' || mapType === 'granular') out.mapType = mapType;
  return out;
}

function objectType(schema: OpenApiSchema, preserve: boolean): MapType {
  const out: MapType = {};
  if (schema.properties && Object.keys(schema.properties).length > 0) {
    out.fields = Object.fromEntries(
      Object.keys(schema.properties)
        .sort()
        .map((name) => [name, toTypeRef(schema.properties![name]!, preserve)]),
    );
  }
  const extra = schema.additionalProperties;
  if (extra === undefined) {
    // An object without properties is free-form; with properties, only preserve-unknown-fields
    // lets other keys in.
    if (preserve || out.fields === undefined) out.values = 'deduced';
  } else if (extra === true) {
    out.values = 'deduced';
  } else if (extra !== false) {
    out.values = toTypeRef(extra, preserve);
  }
  if (schema['x-kubernetes-map-type'] === 'atomic') out.mapType = 'atomic';
  return Object.assign(out, patchInfo(schema));
}

function listType(schema: OpenApiSchema, preserve: boolean): ListType {
  const items = schema.items ? toTypeRef(schema.items, preserve) : 'any';
  const declared = schema['x-kubernetes-list-type'];
  const out: ListType = { list: items, listType: 'atomic' };
  if (declared === 'set') out.listType = 'set';
  else if (declared === 'map') {
    out.listType = 'map';
    out.keys = schema['x-kubernetes-list-map-keys'] ?? [];
    const properties = schema.items?.properties ?? {};
    const defaults = Object.fromEntries(out.keys.flatMap((key) => (properties[key]?.default !== undefined ? [[key, properties[key].default]] : [])));
    if (Object.keys(defaults).length > 0) out.keyDefaults = defaults;
  } else if (declared === undefined && schema['x-kubernetes-patch-strategy'] === 'merge') {
    // Without a list type the API server falls back on the strategic merge patch tags.
    const key = schema['x-kubernetes-patch-merge-key'];
    if (key !== undefined) {
      out.listType = 'map';
      out.keys = [key];
    } else out.listType = 'set';
  }
  return Object.assign(out, patchInfo(schema));
}

function patchInfo(schema: OpenApiSchema): PatchInfo {
  const out: PatchInfo = {};
  if (schema['x-kubernetes-patch-strategy'] !== undefined) out.patchStrategy = schema['x-kubernetes-patch-strategy'];
  if (schema['x-kubernetes-patch-merge-key'] !== undefined) out.patchMergeKey = schema['x-kubernetes-patch-merge-key'];
  return out;
}
