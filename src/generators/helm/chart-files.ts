import { toYaml } from '../../yaml.js';

/** Chart.yaml: a Helm 3/4 application chart (apiVersion v2) named after the project. */
export function chartYaml(projectName: string, appVersion: string): string {
  const header = [
    `# The ${projectName} chart, written by \`opgen edit --plugins helm\` from config/.`,
    '# Yours to edit: bump version with every change to the chart, appVersion with every release of the operator.',
  ].join('\n');
  return `${header}\n${toYaml([
    {
      apiVersion: 'v2',
      name: projectName,
      description: `Deploys ${projectName}, a Kubernetes operator built with opgen`,
      type: 'application',
      version: '0.1.0',
      appVersion,
    },
  ])}`;
}

/**
 * templates/NOTES.txt: what `helm install` prints: where the manager runs and how to watch
 * it lead. Each name is template text that renders the object's name in the release;
 * `lease` is what follows `kubectl get`.
 */
export function notesTxt(names: { deployment: string; metricsService: string | undefined; lease: string }): string {
  const metrics = names.metricsService ? `, behind the Service\n${names.metricsService}` : '';
  return `{{ .Chart.Name }} {{ .Chart.AppVersion }} is installed as {{ .Release.Name }} in namespace {{ .Release.Namespace }}.

The manager runs {{ .Values.replicaCount }} replica(s):
  kubectl --namespace {{ .Release.Namespace }} get deployment ${names.deployment}
{{- if .Values.leaderElection.enabled }}

Leader election is on: one replica reconciles at a time, the holder of the Lease
  kubectl --namespace {{ .Release.Namespace }} get ${names.lease}
{{- end }}
{{- if .Values.metrics.enable }}

Metrics are served on port {{ .Values.metrics.port }} at /metrics${metrics}.
{{- end }}

The manager's pod meets the "restricted" Pod Security Standard; to have the namespace enforce it:
  kubectl label namespace {{ .Release.Namespace }} pod-security.kubernetes.io/enforce=restricted
`;
}

/** .helmignore: what `helm package` leaves out. */
export function helmignore(): string {
  return [
    '# Patterns of files `helm package` leaves out of the chart, like .gitignore\'s.',
    '.DS_Store',
    '.git/',
    '.gitignore',
    '.hg/',
    '.svn/',
    '*.swp',
    '*.bak',
    '*.tmp',
    '*.orig',
    '*~',
    '.idea/',
    '.vscode/',
    '*.tmproj',
    '.project',
    '',
  ].join('\n');
}
