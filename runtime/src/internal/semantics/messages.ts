/**
 * Field errors printed as apimachinery prints them, and the 422 message
 * `Kind.group "name" is invalid: ...` built from them.
 *
 * @module
 */
import type { FieldError, FieldErrorType } from './types.js';

const LABELS: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/**
 * `field.Error.ErrorBody()`: `Invalid value: "x": detail`; Required, Forbidden, TooLong and
 * InternalError never print the value, the others print it unless omitted (undefined).
 *
 * @example
 * errorBody({ type: 'FieldValueRequired', field: 'spec.name' }); // 'Required value'
 */
export function errorBody(error: FieldError): string {
  let body = LABELS[error.type];
  const hidesValue = error.type === 'FieldValueRequired' || error.type === 'FieldValueForbidden' || error.type === 'FieldValueTooLong' || error.type === 'InternalError';
  if (!hidesValue && error.value !== undefined) body += `: ${error.value}`;
  if (error.detail) body += `: ${error.detail}`;
  return body;
}

/** `field.Error.Error()`: `path: body`. */
export function fieldErrorText(error: FieldError): string {
  return `${error.field}: ${errorBody(error)}`;
}

/**
 * The message of the 422 Invalid Status: one error bare, several in brackets; an error
 * printed twice is printed once, as the API server's aggregate does.
 *
 * @example
 * invalidMessage('Widget.example.com', 'w1', errors); // 'Widget.example.com "w1" is invalid: spec.name: Required value'
 */
export function invalidMessage(qualifiedKind: string, name: string, errors: FieldError[]): string {
  const texts = [...new Set(errors.map(fieldErrorText))];
  return `${qualifiedKind} "${name}" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`;
}
