/**
 * ConfigMap and Secret validation (kubernetes/pkg/apis/core/validation `ValidateConfigMap`,
 * `ValidateSecret` and their `...Update`): keys must be config keys, and once `immutable` is
 * set the data, and `immutable` itself, can no longer change; a Secret's type never can.
 */
import { formatValue, type FieldError } from './errors.js';
import type { Obj } from './storage.js';
import { deepEqual } from './strategy.js';

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

function configKeys(object: Obj, fields: string[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of fields) {
    for (const key of Object.keys(object[field] ?? {})) {
      const problems: string[] = [];
      if (key.length > 253) problems.push('must be no more than 253 characters');
      if (!CONFIG_KEY.test(key)) problems.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
      if (key === '.' || key === '..') problems.push(`must not be '${key}'`);
      else if (key.startsWith('..')) problems.push("must not start with '..'");
      for (const problem of problems) errors.push({ type: 'FieldValueInvalid', field: `${field}[${key}]`, value: formatValue(key), detail: problem });
    }
  }
  return errors;
}

const IMMUTABLE = 'field is immutable when `immutable` is set';

/** The update checks of an object whose stored version is `immutable: true`: `fields` and the flag stay. */
function immutableData(object: Obj, old: Obj | undefined, fields: string[]): FieldError[] {
  if (old?.immutable !== true) return [];
  const errors: FieldError[] = [];
  if (object.immutable !== true) errors.push({ type: 'FieldValueForbidden', field: 'immutable', detail: IMMUTABLE });
  for (const field of fields) if (!deepEqual(object[field] ?? null, old[field] ?? null)) errors.push({ type: 'FieldValueForbidden', field, detail: IMMUTABLE });
  return errors;
}

/** `ValidateConfigMap`, after `ValidateConfigMapUpdate`'s immutability on update. */
export function validateConfigMap(object: Obj, old: Obj | undefined): FieldError[] {
  return [...immutableData(object, old, ['data', 'binaryData']), ...configKeys(object, ['data', 'binaryData'])];
}

/** `ValidateSecret`, after `ValidateSecretUpdate`'s immutable type and data on update. */
export function validateSecret(object: Obj, old: Obj | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (old && object.type !== old.type) errors.push({ type: 'FieldValueInvalid', field: 'type', value: formatValue(object.type), detail: 'field is immutable' });
  return [...errors, ...immutableData(object, old, ['data']), ...configKeys(object, ['data'])];
}
