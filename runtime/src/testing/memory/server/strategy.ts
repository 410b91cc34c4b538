/**
 * What the API server's registry does to an object on every write, before storing it:
 * `rest.BeforeCreate`/`BeforeUpdate` (system fields, immutable metadata) and each kind's
 * strategy (`PrepareForCreate`/`PrepareForUpdate`: status separation, generation), plus
 * the object-metadata validation every kind shares.
 */
import { randomUUID } from 'node:crypto';
import type { FieldError } from './errors.js';
import { formatValue } from './errors.js';
import type { NameRule, ResourceInfo } from './resources.js';
import type { Obj } from './storage.js';
import { admitStorageObject } from './storage-protection.js';

/** `metav1.Time` on the wire: RFC 3339 in whole seconds, UTC. */
export function timestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `names.SimpleNameGenerator`: the prefix and five random characters (prefix cut so the name fits 63). */
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return (prefix.length > 58 ? prefix.slice(0, 58) : prefix) + suffix;
}

const isEqual = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Keys sorted, so two objects compare by content. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Obj)[k])]));
  }
  return value;
}

export const deepEqual = isEqual;

/** `BeforeCreate` and `PrepareForCreate`: fills system fields and resets what a client may not set. */
export function prepareForCreate(info: ResourceInfo, object: Obj, nowMs: number): void {
  const meta = object.metadata;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  meta.uid = randomUUID();
  meta.creationTimestamp = timestamp(nowMs);
  if (info.status) {
    if (info.crd) delete object.status;
    else object.status = structuredClone(info.initialStatus ?? {});
  }
  if (info.generation !== 'none') meta.generation = 1;
  writeEmptyFields(info, object);
  if (info.group === '' && info.kind === 'Service') allocateClusterIP(object);
  if (info.group === '' && info.kind === 'Pod') admitPod(object);
  admitStorageObject(info, object);
  // The PersistentVolume strategy records when the volume entered its first phase.
  if (info.group === '' && info.kind === 'PersistentVolume') object.status.lastPhaseTransitionTime = timestamp(nowMs);
  if (info.group === 'batch' && info.kind === 'Job') labelJob(object);
  setTemplateGeneration(info, object, undefined);
  if (info.group === '' && info.kind === 'Namespace') {
    const finalizers: string[] = object.spec?.finalizers ?? [];
    object.spec = { ...object.spec, finalizers: finalizers.includes('kubernetes') ? finalizers : [...finalizers, 'kubernetes'] };
  }
}

/**
 * `BeforeUpdate` and `PrepareForUpdate` of the main resource: a client cannot change
 * generation, uid, creationTimestamp or a set deletionTimestamp; `status` is kept from
 * the stored object when it is a subresource; generation moves per the kind's policy.
 */
export function prepareForUpdate(info: ResourceInfo, object: Obj, old: Obj): void {
  keepSystemFields(object, old);
  writeEmptyFields(info, object);
  if (info.group === '' && info.kind === 'Service') keepAllocations(object, old);
  if (info.status) {
    if (old.status === undefined) delete object.status;
    else object.status = old.status;
  }
  setTemplateGeneration(info, object, old);
  bumpGeneration(info, object, old);
}

/** What apps/v1 shows a DaemonSet's `spec.templateGeneration` as (its conversion writes it on every read). */
export const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/**
 * The DaemonSet strategy's template generation: 1 on create, then one more each time the
 * template changes; what a client sends is never kept.
 */
function setTemplateGeneration(info: ResourceInfo, object: Obj, old: Obj | undefined): void {
  if (info.group !== 'apps' || info.kind !== 'DaemonSet') return;
  const was = Number.parseInt(old?.metadata.annotations?.[TEMPLATE_GENERATION] ?? '0', 10) || 0;
  const next = !old ? 1 : isEqual(object.spec?.template, old.spec?.template) ? was : was + 1;
  object.metadata.annotations = { ...object.metadata.annotations, [TEMPLATE_GENERATION]: String(next) };
}

/**
 * `PrepareForUpdate` of `/status`: only `status` is taken from the request. Custom
 * resources keep nothing else of it (apiextensions' status strategy copies the stored
 * object and sets status); built-in kinds keep the request's metadata changes but not its
 * spec or other top-level fields.
 */
export function prepareForStatusUpdate(info: ResourceInfo, object: Obj, old: Obj, nowMs: number): Obj {
  let next: Obj;
  if (info.crd) {
    next = structuredClone(old);
    if (object.metadata?.managedFields !== undefined) next.metadata.managedFields = object.metadata.managedFields;
    else delete next.metadata.managedFields;
  } else {
    next = structuredClone(old);
    next.metadata = object.metadata;
    keepSystemFields(next, old);
  }
  if (object.status === undefined) delete next.status;
  else next.status = object.status;
  if (info.group === '' && info.kind === 'PersistentVolume') stampPhaseTransition(next, old, nowMs);
  setTemplateGeneration(info, next, old);
  next.metadata.generation = old.metadata.generation;
  if (next.metadata.generation === undefined) delete next.metadata.generation;
  return next;
}

/** The PersistentVolume status strategy: a phase change the writer did not time is timed now. */
function stampPhaseTransition(volume: Obj, old: Obj, nowMs: number): void {
  const status = volume.status;
  if (!status || status.phase === old.status?.phase) return;
  if (status.lastPhaseTransitionTime === undefined || status.lastPhaseTransitionTime === old.status?.lastPhaseTransitionTime) status.lastPhaseTransitionTime = timestamp(nowMs);
}

function keepSystemFields(object: Obj, old: Obj): void {
  const meta = object.metadata;
  const oldMeta = old.metadata;
  if (oldMeta.generation === undefined) delete meta.generation;
  else meta.generation = oldMeta.generation;
  if (!meta.uid) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

function bumpGeneration(info: ResourceInfo, object: Obj, old: Obj): void {
  const gen = (old.metadata.generation ?? 0) + 1;
  switch (info.generation) {
    case 'none':
      return;
    case 'spec':
      if (!isEqual(object.spec, old.spec)) object.metadata.generation = gen;
      return;
    case 'spec-annotations':
      if (!isEqual(object.spec, old.spec) || !isEqual(object.metadata.annotations, old.metadata.annotations)) object.metadata.generation = gen;
      return;
    case 'non-metadata': {
      // Both sides are compared in one version on the API server (its hub): a write through
      // another version than the stored object's is no change by its apiVersion alone.
      const { metadata: _new, apiVersion: _newVersion, ...restNew } = object;
      const { metadata: _old, apiVersion: _oldVersion, ...restOld } = old;
      if (!isEqual(restNew, restOld)) object.metadata.generation = gen;
      return;
    }
  }
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** The messages apimachinery's name validators give, one per problem. */
export function nameProblems(rule: NameRule, name: string): string[] {
  const problems: string[] = [];
  switch (rule) {
    case 'dns-subdomain':
      if (name.length > 253) problems.push('must be no more than 253 characters');
      if (!DNS_SUBDOMAIN.test(name)) problems.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
      break;
    case 'dns-label':
      if (name.length > 63) problems.push('must be no more than 63 characters');
      if (!DNS_LABEL.test(name)) problems.push("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
      break;
    case 'dns-1035-label':
      if (name.length > 63) problems.push('must be no more than 63 characters');
      if (!DNS_1035.test(name)) problems.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
      break;
    case 'path-segment':
      if (name === '.' || name === '..') problems.push(`may not be '${name}'`);
      if (name.includes('/')) problems.push("may not contain '/'");
      if (name.includes('%')) problems.push("may not contain '%'");
      break;
  }
  return problems;
}

/** `ValidateObjectMeta` for a create: name (or generateName), namespace scope, owner references. */
export function validateCreateMeta(info: ResourceInfo, object: Obj): FieldError[] {
  const meta = object.metadata;
  const errors: FieldError[] = [];
  if (!meta.name) {
    errors.push({ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' });
  } else {
    for (const problem of nameProblems(info.nameRule, meta.name)) errors.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: formatValue(meta.name), detail: problem });
  }
  errors.push(...validateCommonMeta(info, object));
  return errors;
}

/** `ValidateObjectMetaUpdate` alone: immutable identity, and no new finalizers once deletion began. */
export function validateUpdateMeta(object: Obj, old: Obj): FieldError[] {
  const meta = object.metadata;
  const oldMeta = old.metadata;
  const errors: FieldError[] = [];
  const immutable = (field: string, value: unknown, was: unknown) => {
    if (value !== was) errors.push({ type: 'FieldValueInvalid', field: `metadata.${field}`, value: formatValue(value), detail: 'field is immutable' });
  };
  immutable('uid', meta.uid, oldMeta.uid);
  if (oldMeta.deletionTimestamp) {
    const added = (meta.finalizers ?? []).filter((f: string) => !(oldMeta.finalizers ?? []).includes(f));
    if (added.length > 0) {
      errors.push({ type: 'FieldValueForbidden', field: 'metadata.finalizers', detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f: string) => JSON.stringify(f)).join(', ')}}` });
    }
  }
  return errors;
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME_MESSAGE = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/** `IsQualifiedName`: an optional DNS-subdomain prefix and `/`, then a name part of at most 63 characters. */
function qualifiedNameProblems(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) return [`a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  const name = parts[parts.length - 1]!;
  const problems: string[] = [];
  if (name.length === 0) problems.push('name part must be non-empty');
  else if (name.length > 63) problems.push('name part must be no more than 63 characters');
  if (name.length > 0 && !QUALIFIED_NAME.test(name)) problems.push(QUALIFIED_NAME_MESSAGE);
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0) problems.push('prefix part must be non-empty');
    else for (const problem of nameProblems('dns-subdomain', prefix)) problems.push(`prefix part ${problem}`);
  }
  return problems;
}

/** `ValidateLabels` and the key check of `ValidateAnnotations`: each problem an error on the map's path. */
function validateLabelsAndAnnotations(meta: Obj): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries((meta.labels ?? {}) as Record<string, string>)) {
    for (const problem of qualifiedNameProblems(key)) errors.push({ type: 'FieldValueInvalid', field: 'metadata.labels', value: formatValue(key), detail: problem });
    if (typeof value === 'string') {
      if (value.length > 63) errors.push({ type: 'FieldValueInvalid', field: 'metadata.labels', value: formatValue(value), detail: 'must be no more than 63 characters' });
      if (!LABEL_VALUE.test(value)) {
        errors.push({ type: 'FieldValueInvalid', field: 'metadata.labels', value: formatValue(value), detail: "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')" });
      }
    }
  }
  for (const key of Object.keys((meta.annotations ?? {}) as Record<string, string>)) {
    for (const problem of qualifiedNameProblems(key.toLowerCase())) errors.push({ type: 'FieldValueInvalid', field: 'metadata.annotations', value: formatValue(key), detail: problem });
  }
  return errors;
}

function validateCommonMeta(info: ResourceInfo, object: Obj): FieldError[] {
  const meta = object.metadata;
  const errors: FieldError[] = [];
  if (info.namespaced && !meta.namespace) errors.push({ type: 'FieldValueRequired', field: 'metadata.namespace', detail: '' });
  if (!info.namespaced && meta.namespace) errors.push({ type: 'FieldValueForbidden', field: 'metadata.namespace', detail: 'not allowed on this type' });
  errors.push(...validateLabelsAndAnnotations(meta));
  // A null item decodes into an empty reference, which then fails validation as the API server's does.
  const owners: Obj[] = (meta.ownerReferences ?? []).map((ref: unknown) => (ref !== null && typeof ref === 'object' ? ref : {}));
  // The API server's paths for these carry no index.
  owners.forEach((ref) => {
    const field = 'metadata.ownerReferences';
    if (!ref.apiVersion) errors.push({ type: 'FieldValueInvalid', field: `${field}.apiVersion`, value: formatValue(ref.apiVersion ?? ''), detail: 'version must not be empty' });
    if (!ref.kind) errors.push({ type: 'FieldValueInvalid', field: `${field}.kind`, value: formatValue(ref.kind ?? ''), detail: 'kind must not be empty' });
    if (!ref.name) errors.push({ type: 'FieldValueInvalid', field: `${field}.name`, value: formatValue(ref.name ?? ''), detail: 'name must not be empty' });
    if (!ref.uid) errors.push({ type: 'FieldValueInvalid', field: `${field}.uid`, value: formatValue(ref.uid ?? ''), detail: 'must not be empty' });
  });
  const controllers = owners.filter((ref) => ref.controller === true);
  if (controllers.length > 1) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'metadata.ownerReferences',
      value: formatValue(owners),
      detail: `Only one reference can have Controller set to true. Found "true" in references for ${controllers.map((r) => `${r.kind}/${r.name}`).join(' and ')}`,
    });
  }
  for (const finalizer of (meta.finalizers ?? []) as string[]) {
    for (const problem of qualifiedNameProblems(finalizer)) errors.push({ type: 'FieldValueInvalid', field: 'metadata.finalizers', value: formatValue(finalizer), detail: problem });
  }
  return errors;
}

/** The Job strategy's generated selector: the Job's uid and name as labels of the Job (when it has none) and of its pods. */
function labelJob(job: Obj): void {
  const spec = job.spec;
  if (!spec || spec.manualSelector === true) return;
  const { uid, name } = job.metadata;
  const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name };
  spec.selector ??= { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
  spec.template = { ...spec.template, metadata: { ...spec.template?.metadata, labels: { ...spec.template?.metadata?.labels, ...labels } } };
  if (!job.metadata.labels || Object.keys(job.metadata.labels).length === 0) job.metadata.labels = { ...spec.template.metadata.labels };
}

/**
 * Fields a built-in kind's Go type writes even when empty (no `omitempty`), after the field
 * manager, which never sees them: an Event's (either API's) timestamps and reporter, a
 * StatefulSet's service name.
 */
function writeEmptyFields(info: ResourceInfo, object: Obj): void {
  if (info.group === 'events.k8s.io' && info.kind === 'Event') {
    object.deprecatedFirstTimestamp ??= null;
    object.deprecatedLastTimestamp ??= null;
    object.deprecatedSource ??= {};
  } else if (info.group === '' && info.kind === 'Event') {
    object.source ??= {};
    object.eventTime ??= null;
    object.reportingComponent ??= '';
    object.reportingInstance ??= '';
  } else if (info.group === 'apps' && info.kind === 'StatefulSet' && object.spec && typeof object.spec === 'object') {
    object.spec.serviceName ??= '';
  }
}

/** A Service update keeps its allocated ClusterIP and node ports when the request leaves them out. */
function keepAllocations(service: Obj, old: Obj): void {
  const spec = service.spec;
  const was = old.spec;
  if (!spec || !was) return;
  if (!spec.clusterIP && was.clusterIP) {
    spec.clusterIP = was.clusterIP;
    spec.clusterIPs ??= was.clusterIPs;
  } else if (spec.clusterIP !== was.clusterIP && Array.isArray(spec.clusterIPs) && deepEqual(spec.clusterIPs, was.clusterIPs)) {
    // `normalizeClusterIPs`: a new clusterIP with the old list is the list's new first address (validation then refuses the change).
    spec.clusterIPs = [spec.clusterIP, ...spec.clusterIPs.slice(1)];
  }
  if (spec.clusterIP === was.clusterIP) {
    spec.ipFamilies ??= was.ipFamilies;
    spec.ipFamilyPolicy ??= was.ipFamilyPolicy;
  }
  for (const port of spec.ports ?? []) {
    if (port.nodePort !== undefined) continue;
    const before = (was.ports ?? []).find((p: Obj) => p.port === port.port && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP'));
    if (before?.nodePort !== undefined && (spec.type === 'NodePort' || spec.type === 'LoadBalancer')) port.nodePort = before.nodePort;
  }
  // A port the old Service did not have (another port number) still needs its node port.
  allocateNodePorts(spec);
}

let nextServiceIP = 1;
let nextNodePort = 30000;

/** The Service REST storage's allocation: a ClusterIP service gets an address (from 10.96.0.0/12), single-stack IPv4. */
function allocateClusterIP(service: Obj): void {
  const spec = service.spec;
  if (!spec || spec.type === 'ExternalName') return;
  if (spec.clusterIP === undefined || spec.clusterIP === '') {
    const n = nextServiceIP++;
    spec.clusterIP = `10.96.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
  }
  spec.clusterIPs ??= [spec.clusterIP];
  // A headless Service with a selector is single-stack too (its endpoints have addresses).
  if (spec.clusterIP !== 'None' || spec.selector) {
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
  }
  allocateNodePorts(spec);
}

/** Each port of a NodePort Service (or a LoadBalancer that allocates them) without a node port gets the next free one. */
function allocateNodePorts(spec: Obj): void {
  if (spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false)) {
    for (const port of spec.ports ?? []) port.nodePort ??= 30000 + (nextNodePort++ % 2768);
  }
}

/** What admission (Priority, DefaultTolerationSeconds) and the Pod strategy add to a new Pod. */
function admitPod(pod: Obj): void {
  const spec = pod.spec;
  if (!spec) return;
  spec.priority ??= 0;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
  const tolerations: Obj[] = spec.tolerations ?? [];
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    if (!tolerations.some((t) => t.key === key && (t.effect === 'NoExecute' || t.effect === undefined))) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  }
  spec.tolerations = tolerations;
  pod.status = { ...pod.status, qosClass: qosClass(spec) };
}

/** The Pod's QoS class from its containers' requests and limits. */
function qosClass(spec: Obj): string {
  const containers: Obj[] = [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const requests = c.resources?.requests ?? {};
    const limits = c.resources?.limits ?? {};
    if (Object.keys(requests).length > 0 || Object.keys(limits).length > 0) any = true;
    for (const resource of ['cpu', 'memory']) {
      if (limits[resource] === undefined || (requests[resource] !== undefined && String(requests[resource]) !== String(limits[resource]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
