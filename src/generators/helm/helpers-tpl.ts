import { goString, type Helpers } from './actions.js';

/**
 * templates/_helpers.tpl: the names and labels every template uses. Names follow `helm
 * create`'s rules, so a release named after the chart gets kustomize's names exactly
 * (`<project>-controller-manager`, ...), and any other release gets `<release>-<chart>-...`.
 *
 * @param serviceAccountSuffix the ServiceAccount's name after the prefix (`controller-manager`)
 */
export function helpersTpl(helpers: Helpers, serviceAccountSuffix: string): string {
  const n = (helper: Parameters<Helpers['name']>[0]) => goString(helpers.name(helper));
  return `{{/*
The chart's name, or nameOverride.
*/}}
{{- define ${n('name')} -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The prefix of the release's object names: fullnameOverride, else the release name when it
already holds the chart's name, else <release>-<chart>. At most 63 characters.
*/}}
{{- define ${n('fullname')} -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
<fullname>-<suffix>, the name of one object of the release, e.g.
include ${n('resourceName')} (dict "context" $ "suffix" "manager-role").
The full name is shortened so that the whole fits in 63 characters (Service names must).
*/}}
{{- define ${n('resourceName')} -}}
{{- $room := max 1 (sub 62 (len .suffix)) | int }}
{{- printf "%s-%s" (include ${n('fullname')} .context | trunc $room | trimSuffix "-") .suffix }}
{{- end }}

{{/*
<chart>-<version>, for the helm.sh/chart label.
*/}}
{{- define ${n('chart')} -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels of every object of the release.
*/}}
{{- define ${n('labels')} -}}
helm.sh/chart: {{ include ${n('chart')} . }}
{{ include ${n('selectorLabels')} . }}
{{- with .Chart.AppVersion }}
app.kubernetes.io/version: {{ . | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
The labels that tell this release's pods from others' (with control-plane: controller-manager).
*/}}
{{- define ${n('selectorLabels')} -}}
app.kubernetes.io/name: {{ include ${n('name')} . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
The ServiceAccount the manager runs as.
*/}}
{{- define ${n('serviceAccountName')} -}}
{{- if .Values.serviceAccount.create }}
{{- default (include ${n('resourceName')} (dict "context" . "suffix" ${goString(serviceAccountSuffix)})) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}
`;
}
