/**
 * The parts of built-in kinds' validation the memory cluster reproduces (each kind's
 * `Validate`/`ValidateUpdate` in kubernetes/pkg/apis/<group>/validation), one file per kind
 * group: ConfigMap and Secret keys and immutability (builtin-validation-config.ts), Services'
 * ports and cluster IP (builtin-validation-service.ts), Pods' containers and restart policy
 * (builtin-validation-pod.ts), the apps kinds' counts, selectors and templates
 * (builtin-validation-apps.ts), a Job's template and selector (builtin-validation-batch.ts),
 * a PersistentVolumeClaim's immutable spec (pvc-validation.ts). The rest of built-in field
 * validation is not reproduced.
 */
import type { FieldError } from './errors.js';
import { validateDaemonSet, validateDeployment, validateReplicaSet, validateStatefulSet } from './builtin-validation-apps.js';
import { validateJob } from './builtin-validation-batch.js';
import { validateConfigMap, validateSecret } from './builtin-validation-config.js';
import { validatePodSpec } from './builtin-validation-pod.js';
import { validateService } from './builtin-validation-service.js';
import type { ResourceInfo } from './resources.js';
import type { Obj } from './storage.js';
import { validateClaimUpdate } from './pvc-validation.js';

/** By `group/version/Kind`; `old` is the stored object on update. */
const validators: Record<string, (object: Obj, old: Obj | undefined) => FieldError[]> = {
  'v1/ConfigMap': validateConfigMap,
  'v1/Secret': validateSecret,
  'v1/Service': validateService,
  'v1/Pod': (object) => validatePodSpec(object.spec, 'spec'),
  'apps/v1/Deployment': validateDeployment,
  'apps/v1/ReplicaSet': validateReplicaSet,
  'apps/v1/StatefulSet': validateStatefulSet,
  'apps/v1/DaemonSet': validateDaemonSet,
  'batch/v1/Job': validateJob,
  'v1/PersistentVolumeClaim': (object, old) => (old ? validateClaimUpdate(object, old) : []),
};

/** Field errors of the kind's own validation (metadata is validated elsewhere); `old` on update. */
export function validateBuiltin(info: ResourceInfo, object: Obj, old?: Obj): FieldError[] {
  if (info.crd) return [];
  return validators[`${info.group === '' ? '' : `${info.group}/`}${info.version}/${info.kind}`]?.(object, old) ?? [];
}
