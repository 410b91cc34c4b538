/**
 * The request options every write shares (apimachinery's `ValidateDryRun` and
 * `ValidateFieldValidation`): a value the API server does not know is a 422 before anything
 * is read or written, never a request served as if the option were absent.
 */
import { formatValue, type FieldError } from './errors.js';

/** `dryRun` takes `All` only (the query's values, or a DeleteOptions body's list). */
export function dryRunErrors(dryRun: string | string[] | undefined): FieldError[] {
  if (dryRun === undefined) return [];
  const values = Array.isArray(dryRun) ? dryRun : [dryRun];
  if (values.every((value) => value === 'All')) return [];
  return [{ type: 'FieldValueNotSupported', field: 'dryRun', value: formatValue(values), detail: 'supported values: "All"' }];
}

const FIELD_VALIDATION = ['', 'Ignore', 'Strict', 'Warn'];

/** `fieldValidation` is one of `Ignore`, `Warn` (the default) and `Strict`. */
export function fieldValidationErrors(value: string | undefined): FieldError[] {
  if (value === undefined || FIELD_VALIDATION.includes(value)) return [];
  return [{ type: 'FieldValueNotSupported', field: 'fieldValidation', value: formatValue(value), detail: `supported values: ${FIELD_VALIDATION.map((v) => JSON.stringify(v)).join(', ')}` }];
}
