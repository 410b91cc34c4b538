/**
 * What `fieldValidation` makes of the fields a decode dropped, built-in or custom kind
 * alike: `Strict` refuses the request (400, or the patch handler's 422 quoting the patched
 * object), `Ignore` drops them silently, `Warn` (the default) drops them with a warning each.
 */
import { goQuote } from '../schema/paths.js';
import { goJson } from './codec.js';
import { badRequest, invalid } from './errors.js';
import type { DecodedFrom, WriteContext } from './write-context.js';

/** `fields` are the dropped fields' paths (`spec.containers[0].imagePullPolice`). */
export function reportUnknownFields(context: WriteContext, fields: string[], from?: DecodedFrom): void {
  if (fields.length === 0 || context.fieldValidation === 'Ignore') return;
  const texts = fields.map((field) => `unknown field "${field}"`);
  const { kind, version } = context.resource;
  if (context.fieldValidation === 'Strict' && from && 'patched' in from) {
    // The patch handler's own strict decoding of the patched object (patch.go): a 422 that quotes it.
    throw invalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', value: goQuote(goJson(from.patched)), detail: `strict decoding error: ${texts.join(', ')}` }]);
  }
  if (context.fieldValidation === 'Strict') throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${texts.join(', ')}`);
  context.warnings.push(...texts);
}
