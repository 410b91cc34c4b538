import { toYaml } from '../../yaml.js';

/**
 * A YAML file of `documents` under a comment block. The comments are opgen's own prose;
 * every value, user-given or not, goes through the `yaml` library.
 */
export function yamlFile(comment: readonly string[], ...documents: unknown[]): string {
  const header = comment.map((line) => (line ? `# ${line}` : '#')).join('\n');
  return (header ? `${header}\n` : '') + toYaml(documents);
}

/** Labels every object of the project carries, as kubebuilder's scaffold does. */
export function commonLabels(projectName: string): Record<string, string> {
  return { 'app.kubernetes.io/name': projectName, 'app.kubernetes.io/managed-by': 'kustomize' };
}

/** The labels that select the manager's pods. */
export function managerSelector(projectName: string): Record<string, string> {
  return { 'control-plane': 'controller-manager', 'app.kubernetes.io/name': projectName };
}
