/**
 * The defaults kube-apiserver's scheme fills in on decode for the built-in kinds operators
 * create most (`SetDefaults_*` in kubernetes/pkg/apis/<group>/v1/defaults.go): Deployments,
 * StatefulSets, pod templates and their containers, Services, Namespaces. They apply before
 * the field manager runs, so their fields are owned by the writer, as on a real cluster.
 * Kinds not listed here (Job, CronJob, Pod's admission-added fields...) are stored as sent.
 */
import { isObject, type Obj } from './storage.js';
import { TEMPLATE_GENERATION } from './strategy.js';

function defaultContainer(container: Obj): void {
  container.terminationMessagePath ??= '/dev/termination-log';
  container.terminationMessagePolicy ??= 'File';
  if (container.imagePullPolicy === undefined && typeof container.image === 'string') {
    // `:latest` or no tag pulls every time; a tag or digest only when missing.
    const image: string = container.image;
    const tag = image.includes('@') ? 'digest' : (image.split('/').pop()!.split(':')[1] ?? 'latest');
    container.imagePullPolicy = tag === 'latest' ? 'Always' : 'IfNotPresent';
  }
  container.resources ??= {};
  for (const port of container.ports ?? []) if (isObject(port)) port.protocol ??= 'TCP';
}

/** `SetDefaults_PodSpec` and its containers'. */
export function defaultPodSpec(spec: Obj | undefined): void {
  if (!isObject(spec)) return;
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  for (const list of ['containers', 'initContainers']) for (const c of spec[list] ?? []) if (isObject(c)) defaultContainer(c);
  for (const volume of spec.volumes ?? []) {
    if (!isObject(volume)) continue;
    for (const source of ['configMap', 'secret', 'downwardAPI', 'projected']) if (isObject(volume[source])) volume[source].defaultMode ??= 420;
  }
}

/** `SetDefaults_PersistentVolumeClaim`, also for a StatefulSet's claim templates. */
function defaultClaim(claim: Obj): void {
  if (isObject(claim.spec)) claim.spec.volumeMode ??= 'Filesystem';
}

const defaultTemplate = (template: unknown) => isObject(template) && defaultPodSpec(template.spec);

/** Defaults by `group/version/Kind` (core: `v1/Kind`). */
export const BUILTIN_DEFAULTS: Record<string, (object: Obj) => void> = {
  'v1/Namespace'(object) {
    // The namespace's name label is defaulted (and so re-set on every write).
    object.metadata.labels = { ...object.metadata.labels, 'kubernetes.io/metadata.name': object.metadata.name };
  },
  'v1/Pod'(object) {
    defaultPodSpec(object.spec);
    if (!isObject(object.spec)) return;
    object.spec.enableServiceLinks ??= true;
  },
  'v1/PersistentVolumeClaim': defaultClaim,
  'v1/PersistentVolume'(object) {
    const spec = object.spec;
    if (!isObject(spec)) return;
    spec.persistentVolumeReclaimPolicy ??= 'Retain';
    spec.volumeMode ??= 'Filesystem';
    // `SetDefaults_HostPathVolumeSource`: an unset type is the empty HostPathUnset.
    if (isObject(spec.hostPath)) spec.hostPath.type ??= '';
  },
  'v1/Service'(object) {
    const spec = object.spec;
    if (!isObject(spec)) return;
    spec.type ??= 'ClusterIP';
    if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
    if (spec.type === 'LoadBalancer' || spec.type === 'NodePort') spec.externalTrafficPolicy ??= 'Cluster';
    spec.sessionAffinity ??= 'None';
    if (spec.type !== 'ExternalName') spec.internalTrafficPolicy ??= 'Cluster';
    for (const port of spec.ports ?? []) {
      if (!isObject(port)) continue;
      port.protocol ??= 'TCP';
      port.targetPort ??= port.port;
    }
  },
  'apps/v1/Deployment'(object) {
    const spec = object.spec;
    if (!isObject(spec)) return;
    spec.replicas ??= 1;
    spec.strategy ??= {};
    spec.strategy.type ??= 'RollingUpdate';
    if (spec.strategy.type === 'RollingUpdate') spec.strategy.rollingUpdate = { maxUnavailable: '25%', maxSurge: '25%', ...spec.strategy.rollingUpdate };
    spec.revisionHistoryLimit ??= 10;
    spec.progressDeadlineSeconds ??= 600;
    defaultTemplate(spec.template);
  },
  'apps/v1/StatefulSet'(object) {
    const spec = object.spec;
    if (!isObject(spec)) return;
    spec.replicas ??= 1;
    spec.podManagementPolicy ??= 'OrderedReady';
    spec.updateStrategy ??= {};
    spec.updateStrategy.type ??= 'RollingUpdate';
    if (spec.updateStrategy.type === 'RollingUpdate') spec.updateStrategy.rollingUpdate = { partition: 0, ...spec.updateStrategy.rollingUpdate };
    spec.revisionHistoryLimit ??= 10;
    spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Retain', whenScaled: 'Retain', ...spec.persistentVolumeClaimRetentionPolicy };
    defaultTemplate(spec.template);
    // Claim templates are whole PersistentVolumeClaims: typed, defaulted, with their empty status.
    for (const claim of spec.volumeClaimTemplates ?? []) {
      if (!isObject(claim)) continue;
      claim.apiVersion ??= 'v1';
      claim.kind ??= 'PersistentVolumeClaim';
      defaultClaim(claim);
      claim.status ??= { phase: 'Pending' };
    }
  },
  'apps/v1/DaemonSet'(object) {
    // Decoded into spec.templateGeneration and written back from it (0 when absent), so the writer owns the annotation.
    const sent = Number.parseInt(object.metadata.annotations?.[TEMPLATE_GENERATION] ?? '0', 10) || 0;
    object.metadata.annotations = { ...object.metadata.annotations, [TEMPLATE_GENERATION]: String(sent) };
    const spec = object.spec;
    if (!isObject(spec)) return;
    spec.updateStrategy ??= {};
    spec.updateStrategy.type ??= 'RollingUpdate';
    if (spec.updateStrategy.type === 'RollingUpdate') spec.updateStrategy.rollingUpdate = { maxUnavailable: 1, maxSurge: 0, ...spec.updateStrategy.rollingUpdate };
    spec.revisionHistoryLimit ??= 10;
    defaultTemplate(spec.template);
  },
  'apps/v1/ReplicaSet'(object) {
    if (!isObject(object.spec)) return;
    object.spec.replicas ??= 1;
    defaultTemplate(object.spec.template);
  },
  'batch/v1/Job'(object) {
    const spec = object.spec;
    if (!isObject(spec)) return;
    spec.completionMode ??= 'NonIndexed';
    spec.parallelism ??= 1;
    if (spec.completionMode === 'NonIndexed') spec.completions ??= 1;
    spec.backoffLimit ??= 6;
    spec.suspend ??= false;
    spec.manualSelector ??= false;
    spec.podReplacementPolicy ??= 'TerminatingOrFailed';
    defaultTemplate(spec.template);
  },

  'batch/v1/CronJob'(object) {
    const spec = object.spec;
    if (!isObject(spec)) return;
    spec.concurrencyPolicy ??= 'Allow';
    spec.suspend ??= false;
    spec.successfulJobsHistoryLimit ??= 3;
    spec.failedJobsHistoryLimit ??= 1;
    if (isObject(spec.jobTemplate?.spec)) defaultTemplate(spec.jobTemplate.spec.template);
  },
};
