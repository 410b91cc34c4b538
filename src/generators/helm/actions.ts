/**
 * The Helm template actions the chart's files share. Helpers are named after the chart,
 * as `helm create` does, so the chart can be a dependency of another without clashes.
 */
export interface Helpers {
  /** `<chart>.<helper>`. */
  name(helper: 'name' | 'fullname' | 'chart' | 'resourceName' | 'labels' | 'selectorLabels' | 'serviceAccountName'): string;
  /** `<fullname>-<suffix>` within 63 characters: the name of one object of the release. */
  resourceName(suffix: string): string;
  serviceAccountName(): string;
  /** An action that writes the chart's labels at `indent`, for a line of its own. */
  labels(indent: number): string;
  selectorLabels(indent: number): string;
}

/** The helpers of the chart named `chart`. */
export function helpers(chart: string): Helpers {
  const name: Helpers['name'] = (helper) => `${chart}.${helper}`;
  return {
    name,
    resourceName: (suffix) => `{{ include ${goString(name('resourceName'))} (dict "context" $ "suffix" ${goString(suffix)}) }}`,
    serviceAccountName: () => `{{ include ${goString(name('serviceAccountName'))} $ }}`,
    labels: (indent) => `{{- include ${goString(name('labels'))} $ | nindent ${indent} }}`,
    selectorLabels: (indent) => `{{- include ${goString(name('selectorLabels'))} $ | nindent ${indent} }}`,
  };
}

/** `text` as a Go string literal (JSON's escapes are a subset of Go's). */
export function goString(text: string): string {
  return JSON.stringify(text);
}

/** The release namespace, where every namespaced object of the chart goes. */
export const releaseNamespace = '{{ .Release.Namespace }}';

/** Renders a literal `{{` in template output. */
export const literalOpenDelimiters = '{{ "{{" }}';

/**
 * `key:` with the YAML of `values` below it, written only when that value is set, e.g.
 * `withBlock('.Values.resources', 'resources')` for a container's resources.
 */
export function withBlock(values: string, key: string): (indent: number) => string[] {
  return (indent) => [`{{- with ${values} }}`, `${key}:`, `  {{- toYaml . | nindent ${indent + 2} }}`, '{{- end }}'];
}
