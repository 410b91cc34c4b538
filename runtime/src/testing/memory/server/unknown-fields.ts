/**
 * What `fieldValidation` makes of the fields a decode dropped, built-in or custom kind
 * alike: `Strict` refuses the request (400, or the patch handler's 422 quoting the patched
 * object), `Ignore` drops them silently, `Warn` (the default) drops them with a warning each.
 */
import { goQuote } from '../../../internal/semantics/paths.js';
import { goJson } from './codec.js';
import { badRequest, invalid } from './errors.js';
import type { DecodedFrom, WriteContext } from './write-context.js';

/**
 * The patched object as the API server quotes it: a custom one as decoded JSON (keys
 * sorted), a built-in one in its Go type's field order and without managedFields (the
 * typed patcher strips them before patching).
 */
function quotedPatch(context: WriteContext, patched: unknown): string {
  if (context.resource.crd) return goJson(patched);
  const object = { ...(patched as Record<string, unknown>) };
  if (object.metadata && typeof object.metadata === 'object') {
    const { managedFields: _managedFields, ...metadata } = object.metadata as Record<string, unknown>;
    object.metadata = metadata;
  }
  return goJson(object, true);
}

/** `fields` are the dropped fields' paths (`spec.containers[0].imagePullPolice`). */
export function reportUnknownFields(context: WriteContext, fields: string[], from?: DecodedFrom): void {
  if (fields.length === 0 || context.fieldValidation === 'Ignore') return;
  const texts = fields.map((field) => `unknown field "${field}"`);
  const { kind, version } = context.resource;
  if (context.fieldValidation === 'Strict' && from && 'patched' in from) {
    // The patch handler's own strict decoding of the patched object (patch.go): a 422 that quotes it.
    throw invalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', value: goQuote(quotedPatch(context, from.patched)), detail: `strict decoding error: ${texts.join(', ')}` }]);
  }
  if (context.fieldValidation === 'Strict') throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${texts.join(', ')}`);
  context.warnings.push(...texts);
}
