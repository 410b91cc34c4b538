{{/*
The chart's name, or nameOverride.
*/}}
{{- define "echoperator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The prefix of the release's object names: fullnameOverride, else the release name when it
already holds the chart's name, else <release>-<chart>. At most 63 characters.
*/}}
{{- define "echoperator.fullname" -}}
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
include "echoperator.resourceName" (dict "context" $ "suffix" "manager-role").
The full name is shortened so that the whole fits in 63 characters (Service names must).
*/}}
{{- define "echoperator.resourceName" -}}
{{- $room := max 1 (sub 62 (len .suffix)) | int }}
{{- printf "%s-%s" (include "echoperator.fullname" .context | trunc $room | trimSuffix "-") .suffix }}
{{- end }}

{{/*
<chart>-<version>, for the helm.sh/chart label.
*/}}
{{- define "echoperator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels of every object of the release.
*/}}
{{- define "echoperator.labels" -}}
helm.sh/chart: {{ include "echoperator.chart" . }}
{{ include "echoperator.selectorLabels" . }}
{{- with .Chart.AppVersion }}
app.kubernetes.io/version: {{ . | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
The labels that tell this release's pods from others' (with control-plane: controller-manager).
*/}}
{{- define "echoperator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "echoperator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
The ServiceAccount the manager runs as.
*/}}
{{- define "echoperator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "echoperator.resourceName" (dict "context" . "suffix" "controller-manager")) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}
