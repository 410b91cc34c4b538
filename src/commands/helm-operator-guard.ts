import { UserError } from '../errors.js';
import { isHelmOperatorProject } from '../generators/helm-operator/plugin.js';
import { projectFileName, type ProjectConfig } from '../project/model.js';

/**
 * Refuses a command that cannot work on a chart-backed project: one that works on TypeScript
 * types and controllers would find none and rewrite the CRDs and role `create api
 * --helm-chart` wrote (as empty ones); one that replays the scaffold would take the chart
 * project's files for the user's. `why` ends the message: "has no types to work on".
 */
export function refuseInHelmOperatorProject(project: ProjectConfig, command: string, hint: string, why = 'has no types to work on'): void {
  if (!isHelmOperatorProject(project)) return;
  throw new UserError(`${command}: this project is backed by Helm charts (init --plugins helm-operator) and ${why}; nothing was written`, { file: projectFileName }, hint);
}
