/**
 * The part of the apps/v1 kinds' validation (kubernetes/pkg/apis/apps/validation and the
 * registry strategies' `ValidateUpdate`) that an operator's writes run into most: counts that
 * must not be negative, a selector that is required, matches the template's labels and never
 * changes, the template's pod spec (builtin-validation-pod.ts), and a StatefulSet's spec
 * fields that cannot change after creation. Strategy and label-selector syntax validation is
 * not reproduced (the errors it would report in between are missing, not invented).
 */
import { matchesSelector, type LabelSelector } from '../../../helm/selector.js';
import { formatValue, type FieldError } from './errors.js';
import { validateWorkloadTemplate } from './builtin-validation-pod.js';
import { isObject, type Obj } from './storage.js';
import { deepEqual } from './strategy.js';

/** `ValidateNonnegativeField` for each named field of `spec` that holds a number. */
function nonNegative(spec: Obj, fields: string[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of fields) {
    const value = spec[field];
    if (typeof value === 'number' && value < 0) errors.push({ type: 'FieldValueInvalid', field: `spec.${field}`, value: String(value), detail: 'must be greater than or equal to 0' });
  }
  return errors;
}

/** A selector must be there and select something (`empty selector is invalid for <kind>`). */
function requiredSelector(spec: Obj, kind: string): FieldError[] {
  const selector = spec.selector;
  if (!isObject(selector)) return [{ type: 'FieldValueRequired', field: 'spec.selector' }];
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    return [{ type: 'FieldValueInvalid', field: 'spec.selector', value: formatValue(selector), detail: `empty selector is invalid for ${kind}` }];
  }
  return [];
}

/**
 * The template's labels must satisfy the selector (a missing selector selects nothing, so it
 * is reported here too, as `LabelSelectorAsSelector(nil)` makes the API server do).
 */
function selectorMatchesTemplate(spec: Obj): FieldError[] {
  const template = isObject(spec.template) ? spec.template : {};
  const labels: Record<string, string> = isObject(template.metadata) && isObject(template.metadata.labels) ? template.metadata.labels : {};
  const selector = spec.selector;
  const empty = isObject(selector) && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;
  if (empty || (isObject(selector) && matchesSelector(selector as LabelSelector, labels))) return [];
  return [{ type: 'FieldValueInvalid', field: 'spec.template.metadata.labels', value: formatValue(labels), detail: '`selector` does not match template `labels`' }];
}

/** The strategies' `ValidateUpdate` for apps/v1: the selector is immutable. */
function immutableSelector(object: Obj, old: Obj | undefined): FieldError[] {
  const selector = isObject(object.spec) ? object.spec.selector : undefined;
  const was = isObject(old?.spec) ? old.spec.selector : undefined;
  if (!old || deepEqual(selector ?? null, was ?? null)) return [];
  return [{ type: 'FieldValueInvalid', field: 'spec.selector', value: formatValue(selector), detail: 'field is immutable' }];
}

const specOf = (object: Obj): Obj => (isObject(object.spec) ? object.spec : {});

/** `ValidateDeploymentSpec` (replicas first, the other counts after the template), then the immutable selector. */
export function validateDeployment(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = specOf(object);
  return [
    ...nonNegative(spec, ['replicas']),
    ...requiredSelector(spec, 'deployment'),
    ...selectorMatchesTemplate(spec),
    ...validateWorkloadTemplate(spec.template, 'spec.template'),
    ...nonNegative(spec, ['minReadySeconds', 'revisionHistoryLimit', 'progressDeadlineSeconds']),
    ...immutableSelector(object, old),
  ];
}

/** `ValidateReplicaSetSpec`, then the immutable selector. */
export function validateReplicaSet(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = specOf(object);
  return [
    ...nonNegative(spec, ['replicas', 'minReadySeconds']),
    ...requiredSelector(spec, 'deployment'),
    ...selectorMatchesTemplate(spec),
    ...validateWorkloadTemplate(spec.template, 'spec.template'),
    ...immutableSelector(object, old),
  ];
}

/** `ValidateDaemonSetSpec` (no selector is only a mismatch), then the immutable selector. */
export function validateDaemonSet(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = specOf(object);
  const selector = spec.selector;
  const errors = selectorMatchesTemplate(spec);
  if (isObject(selector)) errors.push(...requiredSelector(spec, 'daemonset'));
  return [...errors, ...validateWorkloadTemplate(spec.template, 'spec.template'), ...nonNegative(spec, ['minReadySeconds', 'revisionHistoryLimit']), ...immutableSelector(object, old)];
}

/** The spec fields a StatefulSet update may change; any other change is refused whole. */
const STATEFULSET_MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

const STATEFULSET_FORBIDDEN =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/**
 * `ValidateStatefulSet` / `ValidateStatefulSetUpdate`: the counts, selector and template,
 * then on update the spec with the mutable fields taken from the stored object must equal
 * the stored spec (a claim template, the service name, the selector cannot change).
 */
export function validateStatefulSet(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = specOf(object);
  const errors = [
    ...nonNegative(spec, ['replicas', 'minReadySeconds']),
    ...requiredSelector(spec, 'statefulset'),
    ...selectorMatchesTemplate(spec),
    ...validateWorkloadTemplate(spec.template, 'spec.template'),
  ];
  if (old) {
    const oldSpec = specOf(old);
    const withOldMutable: Obj = { ...spec };
    for (const field of STATEFULSET_MUTABLE) {
      if (field in oldSpec) withOldMutable[field] = oldSpec[field];
      else delete withOldMutable[field];
    }
    if (!deepEqual(withOldMutable, oldSpec)) errors.push({ type: 'FieldValueForbidden', field: 'spec', detail: STATEFULSET_FORBIDDEN });
  }
  return errors;
}
