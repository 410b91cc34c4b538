/**
 * The part of a Service's validation (kubernetes/pkg/apis/core/validation `ValidateService`
 * and `ValidateServiceUpdate`) that an operator's writes run into most: ports present unless
 * the Service is headless or an ExternalName, named (DNS labels, unique) when there are
 * several, with valid numbers; the primary cluster IP never changes once set. IP families,
 * traffic policies, node ports and load balancer fields are not reproduced.
 */
import { formatValue, type FieldError } from './errors.js';
import { isObject, type Obj } from './storage.js';
import { nameProblems } from './strategy.js';

/** `isHeadlessService`: a ClusterIP Service whose first cluster IP is `None`. */
function isHeadless(spec: Obj): boolean {
  const first = Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0 ? spec.clusterIPs[0] : spec.clusterIP;
  return spec.type === 'ClusterIP' && first === 'None';
}

const PORT_RANGE = 'must be between 1 and 65535, inclusive';
const validPort = (port: number): boolean => Number.isInteger(port) && port >= 1 && port <= 65535;

/** `validateServicePort` for each port: a name when there are several (else optional), unique, and a valid port number. */
function validatePorts(ports: unknown[]): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = `spec.ports[${i}]`;
    const item = isObject(port) ? port : {};
    const name = typeof item.name === 'string' ? item.name : '';
    if (name === '') {
      if (ports.length > 1) errors.push({ type: 'FieldValueRequired', field: `${at}.name` });
    } else {
      for (const problem of nameProblems('dns-label', name)) errors.push({ type: 'FieldValueInvalid', field: `${at}.name`, value: formatValue(name), detail: problem });
      if (names.has(name)) errors.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: formatValue(name) });
      else names.add(name);
    }
    const number = typeof item.port === 'number' ? item.port : 0;
    if (!validPort(number)) errors.push({ type: 'FieldValueInvalid', field: `${at}.port`, value: String(number), detail: PORT_RANGE });
    // A numeric targetPort (defaulted from port) is a port number too; a named one is not checked here.
    if (typeof item.targetPort === 'number' && !validPort(item.targetPort)) errors.push({ type: 'FieldValueInvalid', field: `${at}.targetPort`, value: String(item.targetPort), detail: PORT_RANGE });
  });
  return errors;
}

/** `validateUpgradeDowngradeClusterIPs`' first rule: the primary cluster IP cannot change (ExternalName aside). */
function immutableClusterIP(spec: Obj, oldSpec: Obj): FieldError[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  const now: unknown[] = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
  const was: unknown[] = Array.isArray(oldSpec.clusterIPs) ? oldSpec.clusterIPs : [];
  if (now.length === 0 || was.length === 0 || now[0] === was[0]) return [];
  return [{ type: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', value: formatValue(now), detail: 'may not change once set' }];
}

/** `ValidateServiceUpdate`'s cluster IP rule, then `ValidateService`'s port rules. */
export function validateService(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = isObject(object.spec) ? object.spec : {};
  const errors = old && isObject(old.spec) ? immutableClusterIP(spec, old.spec) : [];
  const ports: unknown[] = Array.isArray(spec.ports) ? spec.ports : [];
  if (ports.length === 0 && !isHeadless(spec) && spec.type !== 'ExternalName') errors.push({ type: 'FieldValueRequired', field: 'spec.ports' });
  return [...errors, ...validatePorts(ports)];
}
