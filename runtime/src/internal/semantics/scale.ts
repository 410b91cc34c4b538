/**
 * The scale subresource's paths checked on every write, as apiextensions-apiserver's
 * custom resource validator does: the replicas paths must hold a non-negative int32 when
 * present, the label selector path a string. Errors name the JSON path as the CRD gives it
 * (`.spec.replicas: Invalid value: -1: should be a non-negative integer`).
 *
 * @module
 */
import { goNumber } from './paths.js';
import { isObject, type FieldError, type Json, type JsonObject } from './types.js';

export interface ScalePaths {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

/** The Go type name `unstructured.Nested*` reports for a JSON value. */
function goType(value: Json): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

function goPrint(value: Json): string {
  if (typeof value === 'number') return goNumber(value);
  if (value === null) return '<nil>';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function lookup(object: JsonObject, path: string): { found: boolean; value?: Json; blocked?: { at: string; value: Json } } {
  let at: Json = object;
  const fields = path.replace(/^\./, '').split('.');
  for (const [i, field] of fields.entries()) {
    if (!isObject(at)) return { found: false, blocked: { at: `.${fields.slice(0, i).join('.')}`, value: at } };
    if (!(field in at)) return { found: false };
    at = at[field]!;
  }
  return { found: true, value: at };
}

function replicas(object: JsonObject, path: string | undefined, errors: FieldError[]): void {
  if (!path) return;
  const { found, value } = lookup(object, path);
  if (!found || value === undefined) return;
  if (goType(value) !== 'int64') {
    errors.push({ type: 'FieldValueInvalid', field: path, value: '0', detail: `${path} accessor error: ${goPrint(value)} is of the type ${goType(value)}, expected int64` });
  } else if ((value as number) < 0) {
    errors.push({ type: 'FieldValueInvalid', field: path, value: goNumber(value as number), detail: 'should be a non-negative integer' });
  } else if ((value as number) > 2147483647) {
    errors.push({ type: 'FieldValueInvalid', field: path, value: goNumber(value as number), detail: 'should be less than or equal to 2147483647' });
  }
}

/**
 * Scale errors for a write to the main resource (`spec` and `status` paths) or to `/status`
 * (`status` paths only).
 *
 * @example
 * validateScale(object, { specReplicasPath: '.spec.replicas' }, ''); // [] or the errors
 */
export function validateScale(object: JsonObject, scale: ScalePaths, subresource: '' | 'status'): FieldError[] {
  const errors: FieldError[] = [];
  if (subresource === '') replicas(object, scale.specReplicasPath, errors);
  replicas(object, scale.statusReplicasPath, errors);
  if (scale.labelSelectorPath) {
    const { found, value } = lookup(object, scale.labelSelectorPath);
    if (found && value !== undefined && typeof value !== 'string') {
      errors.push({ type: 'FieldValueInvalid', field: scale.labelSelectorPath, value: '""', detail: `${scale.labelSelectorPath} accessor error: ${goPrint(value)} is of the type ${goType(value)}, expected string` });
    }
  }
  return errors;
}
