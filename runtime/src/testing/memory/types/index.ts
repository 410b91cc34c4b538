/**
 * Type information for the memory cluster's server-side apply and strategic merge patch:
 * per kind, which lists are atomic, sets or maps (and their keys), which maps and structs are
 * atomic, where values are deduced, and the strategic merge patch strategies and merge keys.
 *
 * @example
 * const type = builtinKindType('apps/v1', 'Deployment');
 * const crdType = crdKindType(crd, 'v1');
 *
 * @module
 */
import { BUILTIN_KINDS, BUILTIN_TYPES } from './builtin.generated.js';
import { toTypeRef, type OpenApiSchema } from './from-openapi.js';
import type { KindType, MapType, TypeRef } from './schema.js';

export { resolve, fieldType, type TypeRef, type ListType, type MapType, type RefType, type PatchInfo, type TypeTable, type KindType, type Resolved } from './schema.js';
export { toTypeRef, type OpenApiSchema } from './from-openapi.js';
export { BUILTIN_FORMATS, BUILTIN_KINDS, BUILTIN_TYPES } from './builtin.generated.js';
export { zeroObject } from './zero.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * The type of a built-in kind, or undefined when `apiVersion`/`kind` is not built in.
 *
 * @example
 * builtinKindType('v1', 'ConfigMap')?.root; // 'io.k8s.api.core.v1.ConfigMap'
 */
export function builtinKindType(apiVersion: string, kind: string): KindType | undefined {
  const name = BUILTIN_KINDS[`${apiVersion}/${kind}`];
  return name === undefined ? undefined : { root: name, table: BUILTIN_TYPES };
}

/** The parts of a CustomResourceDefinition the type derivation reads. */
export interface CrdLike {
  spec: {
    preserveUnknownFields?: boolean;
    versions: Array<{ name: string; schema?: { openAPIV3Schema?: OpenApiSchema } }>;
  };
}

/**
 * The type of a custom resource version, from its structural schema as the API server derives
 * it: `x-kubernetes-list-type`/`-list-map-keys`/`-map-type` as written, preserve-unknown-fields
 * (and a version without a schema) deduced; `metadata` (also of embedded resources) is
 * ObjectMeta, `apiVersion` and `kind` scalars.
 *
 * @example
 * const type = crdKindType(crd, 'v1');
 */
export function crdKindType(crd: CrdLike, version: string): KindType {
  const found = crd.spec.versions.find((v) => v.name === version);
  if (!found) throw new Error(`the CustomResourceDefinition serves no version ${version}`);
  const schema = found.schema?.openAPIV3Schema;
  const converted = schema ? toTypeRef(schema, crd.spec.preserveUnknownFields === true) : 'deduced';
  return { root: withObjectMeta(converted, true, schema), table: BUILTIN_TYPES };
}

/** Puts ObjectMeta under the root and under every `x-kubernetes-embedded-resource`. */
function withObjectMeta(ref: TypeRef, embedded: boolean, schema: OpenApiSchema | undefined): TypeRef {
  if (typeof ref === 'string') {
    if (!embedded) return ref;
    return { fields: { apiVersion: 'scalar', kind: 'scalar', metadata: OBJECT_META }, values: 'deduced' };
  }
  if ('ref' in ref) return ref;
  if ('list' in ref) return { ...ref, list: withObjectMeta(ref.list, false, schema?.items) };
  const out: MapType = { ...ref };
  if (ref.fields) {
    out.fields = Object.fromEntries(
      Object.entries(ref.fields).map(([name, child]) => {
        const childSchema = schema?.properties?.[name];
        return [name, withObjectMeta(child, childSchema?.['x-kubernetes-embedded-resource'] === true, childSchema)];
      }),
    );
  }
  if (embedded) out.fields = { ...out.fields, apiVersion: 'scalar', kind: 'scalar', metadata: OBJECT_META };
  return out;
}
