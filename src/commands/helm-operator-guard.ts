import { UserError } from '../errors.js';
import { isHelmOperatorProject } from '../generators/helm-operator/plugin.js';
import { projectFileName, type ProjectConfig } from '../project/model.js';

/**
 * Refuses a command that works on TypeScript types and controllers in a chart-backed
 * project, where it would find none and rewrite the CRDs and role `create api --helm-chart`
 * wrote (as empty ones).
 */
export function refuseInHelmOperatorProject(project: ProjectConfig, command: string, hint: string): void {
  if (!isHelmOperatorProject(project)) return;
  throw new UserError(`${command}: this project is backed by Helm charts (init --plugins helm-operator) and has no types to work on; nothing was written`, { file: projectFileName }, hint);
}
