import { UserError } from '../../errors.js';
import { toYaml } from '../../yaml.js';
import { withBlock } from './actions.js';
import type { Manifest } from './input.js';
import type { Splicer } from './splice.js';
import { escapeDelimiters } from './transform.js';

type Data = Record<string, unknown>;

/** What the chart reads from the manager's Deployment: the defaults of values.yaml. */
export interface ManagerFacts {
  deployment: Manifest;
  /** The ServiceAccount its pods run as. */
  serviceAccount: string | undefined;
  image: { repository: string; tag: string; digest?: string; pullPolicy: string };
  replicas: number;
  leaderElection: boolean;
  metrics: { enable: boolean; port: number };
  resources: unknown;
  securityContext: unknown;
  podSecurityContext: unknown;
  nodeSelector: unknown;
  tolerations: unknown;
  affinity: unknown;
  imagePullSecrets: unknown;
}

const defaultMetricsPort = 8443;

/**
 * Finds the manager: the Deployment whose pods run the container kubectl defaults to (or
 * one named `manager`), as config/manager declares it.
 */
export function managerFacts(manifests: readonly Manifest[]): ManagerFacts {
  const deployments = manifests.filter((m) => m.kind === 'Deployment');
  const deployment = deployments.find((d) => managerContainerIndex(d) >= 0);
  if (!deployment) {
    throw new UserError(
      'config/default builds no Deployment with a container named "manager": the chart has nothing to run',
      { file: 'config/default/kustomization.yaml' },
      'keep ../manager in its resources',
    );
  }
  const podSpec = podSpecOf(deployment);
  const container = containersOf(deployment)[managerContainerIndex(deployment)]!;
  const args = stringList(container.args);
  const metricsAddress = flagValue(args, 'metrics-bind-address');
  const metricsPort = metricsAddress === undefined ? undefined : portOf(metricsAddress);
  const namedPort = (Array.isArray(container.ports) ? (container.ports as Data[]) : []).find((p) => p.name === 'metrics');
  const replicas = (deployment.spec as Data | undefined)?.replicas;
  return {
    deployment,
    serviceAccount: typeof podSpec.serviceAccountName === 'string' ? podSpec.serviceAccountName : undefined,
    image: { ...splitImage(String(container.image ?? 'controller:latest')), pullPolicy: String(container.imagePullPolicy ?? 'IfNotPresent') },
    replicas: typeof replicas === 'number' ? replicas : 1,
    leaderElection: args.some((a) => a === '--leader-elect' || a === '--leader-elect=true' || a === '-leader-elect'),
    metrics: {
      enable: metricsPort !== undefined,
      port: metricsPort ?? (typeof namedPort?.containerPort === 'number' ? namedPort.containerPort : defaultMetricsPort),
    },
    resources: container.resources ?? {},
    securityContext: container.securityContext ?? {},
    podSecurityContext: podSpec.securityContext ?? {},
    nodeSelector: podSpec.nodeSelector ?? {},
    tolerations: podSpec.tolerations ?? [],
    affinity: podSpec.affinity ?? {},
    imagePullSecrets: podSpec.imagePullSecrets ?? [],
  };
}

/**
 * The manager's Deployment with the chart's values in it: replicas, image, the flags for
 * leader election and metrics, resources, security contexts and scheduling. Everything
 * else (command, probes, env, volumes) stays as config/manager has it.
 */
export function templateDeployment(facts: ManagerFacts, splicer: Splicer): Manifest {
  const { deployment } = facts;
  const spec = deployment.spec as Data;
  const template = spec.template as Data;
  const podSpec = podSpecOf(deployment);
  const index = managerContainerIndex(deployment);
  const containers = containersOf(deployment).map((c, i) => (i === index ? templateContainer(c, facts, splicer) : c));

  const scheduling = ['imagePullSecrets', 'nodeSelector', 'affinity', 'tolerations'];
  const newPodSpec: Data = {};
  for (const [key, value] of Object.entries(podSpec)) {
    if (scheduling.includes(key)) continue;
    if (key === 'containers') newPodSpec.containers = containers;
    else if (key === 'securityContext') newPodSpec[splicer.block(withBlock('.Values.podSecurityContext', 'securityContext'))] = null;
    else newPodSpec[key] = value;
  }
  if (!('securityContext' in podSpec)) newPodSpec[splicer.block(withBlock('.Values.podSecurityContext', 'securityContext'))] = null;
  for (const key of scheduling) newPodSpec[splicer.block(withBlock(`.Values.${key}`, key))] = null;

  const newSpec: Data = {};
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'template') newSpec.template = { ...template, spec: newPodSpec };
    else newSpec[key] = value;
  }
  // replicas first, where readers look for it, whether or not config/manager set it.
  return { ...deployment, spec: { replicas: splicer.inline('{{ .Values.replicaCount }}'), ...withoutKey(newSpec, 'replicas') } };
}

/** Refuses replicas without leader election: every one of them would reconcile. */
export const replicasNeedLeaderElection = [
  '{{- if and (gt (int .Values.replicaCount) 1) (not .Values.leaderElection.enabled) }}',
  '{{- fail "replicaCount above 1 needs leaderElection.enabled: without it every replica reconciles" }}',
  '{{- end }}',
];

function templateContainer(container: Data, facts: ManagerFacts, splicer: Splicer): Data {
  const image =
    '{{ .Values.image.repository }}{{ if .Values.image.digest }}@{{ .Values.image.digest }}' +
    '{{ else }}:{{ .Values.image.tag | default .Chart.AppVersion }}{{ end }}';
  // name first: a block may not open a list item, and `- name:` is how readers find a container.
  const result: Data = { name: container.name };
  for (const [key, value] of Object.entries(container)) {
    switch (key) {
      case 'name':
      case 'imagePullPolicy':
        break;
      case 'image':
        result.image = splicer.inline(image);
        result.imagePullPolicy = splicer.inline('{{ .Values.image.pullPolicy }}');
        break;
      case 'args':
        result[splicer.block(argsBlock(stringList(value), splicer))] = null;
        break;
      case 'resources':
        result[splicer.block(withBlock('.Values.resources', 'resources'))] = null;
        break;
      case 'securityContext':
        result[splicer.block(withBlock('.Values.securityContext', 'securityContext'))] = null;
        break;
      case 'ports':
        result.ports = (value as Data[]).map((port) =>
          port.containerPort === facts.metrics.port ? { ...port, containerPort: splicer.inline('{{ .Values.metrics.port }}') } : port,
        );
        break;
      default:
        result[key] = value;
    }
  }
  if (!('args' in container)) result[splicer.block(argsBlock([], splicer))] = null;
  for (const [key, values] of [['resources', '.Values.resources'], ['securityContext', '.Values.securityContext']] as const) {
    if (!(key in container)) result[splicer.block(withBlock(values, key))] = null;
  }
  return result;
}

/**
 * The manager's flags: `--leader-elect` and `--metrics-bind-address` follow the values,
 * the others stay as config/manager has them, and `extraArgs` come last.
 */
function argsBlock(args: readonly string[], splicer: Splicer): (indent: number) => string[] {
  const item = (text: string) => toYaml([[escapeDelimiters(text, splicer)]]).trimEnd();
  const port = splicer.inline('{{ .Values.metrics.port }}');
  const lines: string[] = [];
  let sawLeaderElect = false;
  let sawMetrics = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inlineValue] = splitFlag(arg);
    if (flag === 'leader-elect') {
      if (!sawLeaderElect) lines.push(...leaderElectLines);
      sawLeaderElect = true;
    } else if (flag === 'metrics-bind-address') {
      const value = inlineValue ?? args[++i] ?? '';
      // Keeps the host part config/manager gave (usually none: all interfaces).
      const host = /^(.*):\d+$/.exec(value)?.[1] ?? '';
      lines.push('{{- if .Values.metrics.enable }}', item(`--metrics-bind-address=${host}:${port}`), '{{- else }}', item('--metrics-bind-address=0'), '{{- end }}');
      sawMetrics = true;
    } else {
      lines.push(item(arg));
    }
  }
  if (!sawLeaderElect) lines.unshift(...leaderElectLines);
  if (!sawMetrics) lines.push('{{- if .Values.metrics.enable }}', item(`--metrics-bind-address=:${port}`), '{{- end }}');
  lines.push('{{- range .Values.extraArgs }}', '- {{ . | quote }}', '{{- end }}');
  return () => ['args:', ...lines.map((line) => `  ${line}`)];
}

const leaderElectLines = [
  '{{- if .Values.leaderElection.enabled }}',
  '- --leader-elect',
  '{{- with .Values.leaderElection.leaseName }}',
  '- --leader-election-id={{ . }}',
  '{{- end }}',
  '{{- end }}',
];

function managerContainerIndex(deployment: Manifest): number {
  const containers = containersOf(deployment);
  const template = (deployment.spec as Data | undefined)?.template as Data | undefined;
  const annotations = (template?.metadata as Data | undefined)?.annotations as Record<string, string> | undefined;
  const preferred = annotations?.['kubectl.kubernetes.io/default-container'] ?? 'manager';
  return containers.findIndex((c) => c.name === preferred);
}

function podSpecOf(deployment: Manifest): Data {
  const template = (deployment.spec as Data | undefined)?.template as Data | undefined;
  return (template?.spec as Data | undefined) ?? {};
}

function containersOf(deployment: Manifest): Data[] {
  const containers = podSpecOf(deployment).containers;
  return Array.isArray(containers) ? (containers as Data[]) : [];
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** `--flag=value` or Go's `-flag=value` → [flag, value]; `--flag` → [flag, undefined]. */
function splitFlag(arg: string): [string, string | undefined] {
  const match = /^--?([^=]+)(?:=(.*))?$/.exec(arg);
  return match ? [match[1]!, match[2]] : ['', undefined];
}

/** The value of `--name=value` or `--name value`. */
function flagValue(args: readonly string[], name: string): string | undefined {
  for (const [i, arg] of args.entries()) {
    const [flag, value] = splitFlag(arg);
    if (flag !== name) continue;
    return value ?? args[i + 1];
  }
  return undefined;
}

/** The port of a Go bind address (`:8443`, `0.0.0.0:8443`); undefined for `0` (off). */
function portOf(address: string): number | undefined {
  const port = /:(\d+)$/.exec(address)?.[1];
  return port === undefined || Number(port) === 0 ? undefined : Number(port);
}

/** `registry:5000/team/op:v1` → repository and tag; a digest (`@sha256:...`) is kept apart. */
function splitImage(image: string): { repository: string; tag: string; digest?: string } {
  const [name, digest] = image.split('@') as [string, string | undefined];
  const colon = name.lastIndexOf(':');
  const hasTag = colon > name.lastIndexOf('/');
  const repository = hasTag ? name.slice(0, colon) : name;
  const tag = hasTag ? name.slice(colon + 1) : '';
  return digest ? { repository, tag, digest } : { repository, tag };
}

function withoutKey(data: Data, key: string): Data {
  const { [key]: _, ...rest } = data;
  return rest;
}
