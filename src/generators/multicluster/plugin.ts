import { UserError } from '../../errors.js';
import type { ProjectConfig } from '../../project/model.js';
import { hasPlugin } from '../../project/plugins.js';

/** The PROJECT `plugins` key of an operator that reconciles a fleet of clusters (`opgen init --multicluster`). */
export const multiclusterPlugin = 'multicluster.opgen.dev/v1-alpha';

/** True for a project made with `opgen init --multicluster`: its controllers run on every cluster of the fleet. */
export function isMulticlusterProject(project: ProjectConfig): boolean {
  return hasPlugin(project, multiclusterPlugin);
}

/**
 * The refusal of a fleet operator that watches one namespace: `--namespaced` narrows the
 * manager's own cluster, never the fleet's, whose rights come from each kubeconfig Secret.
 */
export function namespacedFleetError(flag: string): UserError {
  return new UserError(
    `${flag}: an operator of many clusters (--multicluster) does not watch one namespace; the rights it has on each cluster are its kubeconfig Secret's`,
    undefined,
    'give the credentials in each kubeconfig Secret the rights you want the operator to have there',
  );
}
