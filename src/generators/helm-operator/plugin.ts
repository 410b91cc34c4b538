import type { ProjectConfig } from '../../project/model.js';
import { hasPlugin } from '../../project/plugins.js';

/** The PROJECT `plugins` key that marks a chart-backed project, as kubebuilder records its plugins. */
export const helmOperatorPlugin = 'helm-operator.opgen.dev/v1';

/** True for a project made with `opgen init --plugins helm-operator`. */
export function isHelmOperatorProject(project: ProjectConfig): boolean {
  return hasPlugin(project, helmOperatorPlugin);
}

/** Where charts are copied to and watches.yaml names them from. */
export const chartsDir = 'helm-charts';
export const watchesFile = 'watches.yaml';
