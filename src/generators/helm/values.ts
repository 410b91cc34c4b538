import { toYaml } from '../../yaml.js';
import type { HelmChartInput } from './input.js';
import type { ManagerFacts } from './manager.js';

/** One top-level key of values.yaml with the comment above it. */
interface Section {
  comment: readonly string[];
  values: Record<string, unknown>;
}

/**
 * values.yaml: the defaults are what config/ deploys (image, replicas, flags, resources,
 * security contexts), so `helm install` with no values runs what `npm run deploy` runs.
 * Keys follow `helm create`'s where Helm users know them (replicaCount, image,
 * serviceAccount, podSecurityContext, ...). Written once: after that it is the user's.
 */
export function valuesYaml(input: HelmChartInput, facts: ManagerFacts, optional: { prometheus: boolean; networkPolicy: boolean }): string {
  const lease = input.leaderElectionId ? ` (empty: ${input.leaderElectionId}, the name in src/main.ts)` : ' (empty: the name in src/main.ts)';
  const sections: Section[] = [
    {
      comment: ['Shorten or replace the names of the release\'s objects (<release>-<chart>-controller-manager, ...).'],
      values: { nameOverride: '', fullnameOverride: '' },
    },
    {
      comment: [
        'The operator\'s image (`npm run docker:build`). An empty tag means the chart\'s appVersion;',
        'a digest, when there is one, wins over the tag.',
      ],
      values: { image: facts.image, imagePullSecrets: facts.imagePullSecrets },
    },
    {
      comment: ['How many manager pods run. With more than one, keep leader election on: only the leader reconciles.'],
      values: { replicaCount: facts.replicas },
    },
    {
      comment: [
        'Leader election on a coordination.k8s.io Lease in the release namespace (the --leader-elect flag).',
        `leaseName: the Lease's name${lease}.`,
      ],
      values: { leaderElection: { enabled: facts.leaderElection, leaseName: '' } },
    },
    {
      comment: ['More flags for the manager, e.g. [--log-level=debug, --log-format=pretty].'],
      values: { extraArgs: [] },
    },
    {
      comment: ['The manager container\'s resources and security context, and its pod\'s.'],
      values: { resources: facts.resources, securityContext: facts.securityContext, podSecurityContext: facts.podSecurityContext },
    },
    {
      comment: ['Where the manager\'s pods may run.'],
      values: { nodeSelector: facts.nodeSelector, tolerations: facts.tolerations, affinity: facts.affinity },
    },
    {
      comment: [
        'The ServiceAccount the manager runs as. create: false uses an existing one, named by name',
        '(empty: "default"); the chart still binds its roles to it when rbac.create is true.',
      ],
      values: { serviceAccount: { create: true, name: '', annotations: {} } },
    },
    {
      comment: [
        'create: the manager\'s roles and bindings: its permissions from the controllers\' RBAC markers, leader',
        'election, and (with metrics.enable) checking scrapers\' tokens plus the metrics-reader role to bind them to.',
        'helpers: the admin, editor and viewer ClusterRoles of each kind, for the cluster\'s users.',
      ],
      values: { rbac: { create: true, helpers: false } },
    },
    {
      comment: [
        'The CustomResourceDefinitions. keep: helm uninstall leaves them (and so every object of those',
        'kinds) in the cluster; without it, uninstalling deletes them all.',
      ],
      values: { crd: { enable: true, keep: true } },
    },
    {
      comment: [
        'The manager\'s /metrics (the --metrics-bind-address flag) and the Service in front of it. The manager',
        'serves it over HTTPS to callers whose token may `get /metrics`: bind the metrics-reader ClusterRole to them.',
      ],
      values: { metrics: facts.metrics },
    },
    {
      comment: ['A ServiceMonitor for the metrics Service: needs the Prometheus operator\'s CRDs in the cluster.'],
      values: { prometheus: { enable: optional.prometheus } },
    },
    {
      comment: ['A NetworkPolicy that lets only namespaces labelled metrics=enabled reach the metrics port.'],
      values: { networkPolicy: { enable: optional.networkPolicy } },
    },
  ];
  const header = [
    `# Values of the ${input.projectName} chart, taken from config/ when \`opgen edit --plugins helm\` first ran.`,
    '# This file is yours now: re-running the command updates templates/ and leaves it alone (unless --force).',
  ];
  return [header.join('\n'), ...sections.map((s) => s.comment.map((line) => `# ${line}`).join('\n') + '\n' + toYaml([s.values]).trimEnd())].join('\n\n') + '\n';
}
