/**
 * The part of a pod spec's validation (kubernetes/pkg/apis/core/validation `ValidatePodSpec`)
 * that an operator's writes run into most, for Pods and every pod template: containers
 * present, named with unique DNS labels, and a known restartPolicy. Volumes, probes, ports,
 * resources and the rest are not reproduced (their errors are missing, not invented).
 */
import { formatValue, type FieldError } from './errors.js';
import { isObject } from './storage.js';
import { nameProblems } from './strategy.js';

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

/** `validateContainers`: at least one, each named (a DNS label), no name twice. */
function validateContainers(containers: unknown, path: string): FieldError[] {
  const list = Array.isArray(containers) ? containers : [];
  if (list.length === 0) return [{ type: 'FieldValueRequired', field: path }];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((container, i) => {
    const name = isObject(container) && typeof container.name === 'string' ? container.name : '';
    const at = `${path}[${i}].name`;
    if (name === '') errors.push({ type: 'FieldValueRequired', field: at });
    else for (const problem of nameProblems('dns-label', name)) errors.push({ type: 'FieldValueInvalid', field: at, value: formatValue(name), detail: problem });
    if (seen.has(name)) errors.push({ type: 'FieldValueDuplicate', field: at, value: formatValue(name) });
    else seen.add(name);
  });
  return errors;
}

/**
 * `validateRestartPolicy`: one of Always, OnFailure and Never. Absent is Always: the API
 * server defaults even a template that has no spec at all (its Go struct is always there).
 */
function validateRestartPolicy(policy: unknown, path: string): FieldError[] {
  if (policy === undefined || (typeof policy === 'string' && RESTART_POLICIES.includes(policy))) return [];
  if (policy === '') return [{ type: 'FieldValueRequired', field: path }];
  return [{ type: 'FieldValueNotSupported', field: path, value: formatValue(policy), detail: `supported values: ${RESTART_POLICIES.map((p) => JSON.stringify(p)).join(', ')}` }];
}

/** `ValidatePodSpec`'s reproduced checks, in its order; `path` is the spec's (`spec`, `spec.template.spec`). */
export function validatePodSpec(spec: unknown, path: string): FieldError[] {
  const podSpec = isObject(spec) ? spec : {};
  return [...validateContainers(podSpec.containers, `${path}.containers`), ...validateRestartPolicy(podSpec.restartPolicy, `${path}.restartPolicy`)];
}

/**
 * A workload's template (`ValidatePodTemplateSpecForReplicaSet` and its kin): its pod spec,
 * then a restartPolicy other than Always refused (a controller's pods always restart).
 */
export function validateWorkloadTemplate(template: unknown, path: string): FieldError[] {
  const spec = isObject(template) && isObject(template.spec) ? template.spec : {};
  const errors = validatePodSpec(spec, `${path}.spec`);
  const policy = spec.restartPolicy ?? 'Always';
  if (policy !== 'Always') {
    errors.push({ type: 'FieldValueNotSupported', field: `${path}.spec.restartPolicy`, value: formatValue(policy), detail: 'supported values: "Always"' });
  }
  return errors;
}
