/**
 * The pipeline's schema hooks, filled by the schema part (`../schema`): custom objects
 * pruned and defaulted on decode, validated against their schema and CEL rules, CRDs
 * admitted as apiextensions-apiserver admits them. `fieldValidation` decides what pruned
 * fields do (unknown-fields.ts).
 */
import { admitCrd, decodeCustomObject, validateCustomObject, type CrdLike, type JsonObject } from '../../../internal/semantics/index.js';
import type { FieldError } from './errors.js';
import { reportUnknownFields } from './unknown-fields.js';
import type { DecodedFrom, WriteContext } from './write-context.js';
import type { Obj } from './storage.js';

function crdOf(context: WriteContext): CrdLike {
  return context.resource.crd as CrdLike;
}

export function pruneAndDefault(context: WriteContext, object: Obj, from?: DecodedFrom): Obj {
  const applied = from !== undefined && 'applied' in from;
  const { object: decoded, unknownFields } = decodeCustomObject({ crd: crdOf(context), version: context.resource.version, object: object as unknown as JsonObject, applied });
  reportUnknownFields(context, unknownFields, from);
  return decoded as unknown as Obj;
}

export function validateCustomResource(context: WriteContext, object: Obj): FieldError[] {
  return validateCustomObject({
    crd: crdOf(context),
    version: context.resource.version,
    object: object as unknown as JsonObject,
    oldObject: context.live as unknown as JsonObject | undefined,
    // A /scale write is an update of the object's replicas, validated as the main resource's.
    subresource: context.subresource === 'scale' ? '' : context.subresource,
  });
}

export function validateCustomResourceDefinition(_context: WriteContext, crd: Obj): FieldError[] {
  return admitCrd(crd as unknown as CrdLike);
}
