/**
 * The semantics core: what the API server decides about a custom object or a CRD, once, for
 * the memory cluster and for the CLI (`opgen manifests`, samples, bundles), which imports it as
 * `@opgen/runtime/internal/semantics` and carries it in its bundle. Internal: not part of the
 * runtime's public API. As apiextensions-apiserver implements them: CRD
 * admission ({@link admitCrd}), decoding of custom objects (pruning, then defaulting:
 * {@link decodeCustomObject}), and validation (OpenAPI schema, list types, CEL rules:
 * {@link validateCustomObject}), each returning plain data; the server turns field errors into
 * its 422 Status.
 *
 * @example
 * const { object } = decodeCustomObject({ crd, version: 'v1', object: body });
 * const errors = validateCustomObject({ crd, version: 'v1', object, oldObject: live });
 * if (errors.length > 0) console.log(invalidMessage('Widget.example.com', 'w1', errors));
 *
 * @module
 */
export { admitCrd } from './admission.js';
export { structuralFindings } from './crd-schema.js';
export { defaultFindings } from './schema-defaults.js';
export { unsupportedKeywords } from './schema-keywords.js';
export { itemPath, propertyPath, type SchemaFinding } from './schema-place.js';
export { decodeCustomObject, pruneCustomObject, type DecodeOptions, type Decoded } from './decode.js';
export { validateCustomObject, type ValidateOptions } from './validate.js';
export { errorBody, invalidMessage } from './messages.js';
export { matchesFormat } from './formats.js';
export { prune } from './prune.js';
export { validateStructural } from './value.js';
export { validateListTypes } from './list-types.js';
export { isIntOrStringAnyOf } from './combinators.js';
export type { CrdLike, FieldError, FieldErrorType, Json, JsonObject, SchemaNode, ValidationRule, ValueCheck } from './types.js';
