import type { JSONSchemaProps } from './types.js';

/**
 * Whether a JSON value is of the type a schema's `type` names, as the API server's
 * validation sees it: an integer is a number without a fraction, an object is neither null
 * nor a list. The one answer to that question for the walk and for validation.
 */
export function hasJsonType(type: NonNullable<JSONSchemaProps['type']>, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
  }
}
