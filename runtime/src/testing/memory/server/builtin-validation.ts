/**
 * The parts of built-in kinds' validation the memory cluster reproduces (each kind's
 * `Validate` in kubernetes/pkg/apis/<group>/validation): ConfigMap and Secret keys, the apps
 * kinds' counts and a StatefulSet's immutable spec (builtin-validation-apps.ts), and a
 * PersistentVolumeClaim's immutable spec on update (`ValidateUpdate`, pvc-validation.ts). Other
 * built-in field validation (Pod specs, Deployment selectors ...) is not reproduced.
 */
import { formatValue, type FieldError } from './errors.js';
import { validateDeployment, validateReplicaSet, validateStatefulSet } from './builtin-validation-apps.js';
import type { ResourceInfo } from './resources.js';
import type { Obj } from './storage.js';
import { validateClaimUpdate } from './pvc-validation.js';

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

/** By `group/version/Kind`; `old` is the stored object on update. */
const validators: Record<string, (object: Obj, old: Obj | undefined) => FieldError[]> = {
  'v1/ConfigMap': (object) => configKeys(object, ['data', 'binaryData']),
  'v1/Secret': (object) => configKeys(object, ['data']),
  'apps/v1/Deployment': validateDeployment,
  'apps/v1/ReplicaSet': validateReplicaSet,
  'apps/v1/StatefulSet': validateStatefulSet,
  'v1/PersistentVolumeClaim': (object, old) => (old ? validateClaimUpdate(object, old) : []),
};

/** Field errors of the kind's own validation (metadata is validated elsewhere); `old` on update. */
export function validateBuiltin(info: ResourceInfo, object: Obj, old?: Obj): FieldError[] {
  if (info.crd) return [];
  return validators[`${info.group === '' ? '' : `${info.group}/`}${info.version}/${info.kind}`]?.(object, old) ?? [];
}
