/**
 * CRD semantics for the memory cluster, as apiextensions-apiserver implements them: CRD
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
export { decodeCustomObject, pruneCustomObject, type DecodeOptions, type Decoded } from './decode.js';
export { validateCustomObject, type ValidateOptions } from './validate.js';
export { errorBody, invalidMessage } from './messages.js';
export type { CrdLike, FieldError, FieldErrorType, JsonObject, SchemaNode, ValidationRule } from './types.js';
