/**
 * The pipeline's schema hooks, filled by the schema part (`../schema`): custom objects
 * pruned and defaulted on decode, validated against their schema and CEL rules, CRDs
 * admitted as apiextensions-apiserver admits them. `fieldValidation` decides what pruned
 * fields do: `Strict` refuses the request (400), `Ignore` drops them silently, `Warn` (the
 * default) drops them with a warning for each.
 */
import { admitCrd, decodeCustomObject, validateCustomObject, type CrdLike, type JsonObject } from '../../../internal/semantics/index.js';
import { goQuote } from '../../../internal/semantics/paths.js';
import { goJson } from './codec.js';
import { badRequest, invalid, type FieldError } from './errors.js';
import type { DecodedFrom, WriteContext } from './write-context.js';
import type { Obj } from './storage.js';

function crdOf(context: WriteContext): CrdLike {
  return context.resource.crd as CrdLike;
}

export function pruneAndDefault(context: WriteContext, object: Obj, from?: DecodedFrom): Obj {
  const applied = from !== undefined && 'applied' in from;
  const { object: decoded, unknownFields } = decodeCustomObject({ crd: crdOf(context), version: context.resource.version, object: object as unknown as JsonObject, applied });
  if (unknownFields.length > 0 && context.fieldValidation !== 'Ignore') {
    const texts = unknownFields.map((field) => `unknown field "${field}"`);
    const { kind, version } = context.resource;
    if (context.fieldValidation === 'Strict' && from && 'patched' in from) {
      // The patch handler's own strict decoding of the patched object (patch.go): a 422 that quotes it.
      throw invalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', value: goQuote(goJson(from.patched)), detail: `strict decoding error: ${texts.join(', ')}` }]);
    }
    if (context.fieldValidation === 'Strict') throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${texts.join(', ')}`);
    context.warnings.push(...texts);
  }
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
