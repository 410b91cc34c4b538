import { join } from 'node:path';
import { UserError } from '../errors.js';
import { isHelmOperatorProject } from '../generators/helm-operator/plugin.js';
import { isMulticlusterProject, multiclusterPlugin, namespacedFleetError } from '../generators/multicluster/plugin.js';
import { addResources } from '../generators/scaffold/config/kustomize.js';
import { fleetRbacResources } from '../generators/scaffold/config/rbac.js';
import { projectWidePaths } from '../generators/scaffold/api-updates.js';
import type { ProjectConfig } from '../project/model.js';
import { readIfExists } from '../read-if-exists.js';
import { rescaffold, type LayoutEdit } from './edit-layout.js';

/**
 * `opgen edit --plugins multicluster`: the project as `init --multicluster` would have made
 * it, kinds included. src/main.ts, config/manager, config/rbac, the e2e test and the
 * controllers' tests are rewritten where they are still what opgen wrote, and kept (named in
 * `kept`) where the user changed them; config/rbac/kustomization.yaml gains the Secret reader.
 */
export async function multiclusterEdit(root: string, project: ProjectConfig): Promise<LayoutEdit> {
  if (isMulticlusterProject(project)) return { project, files: [], kept: [] };
  if (project.namespaced) throw namespacedFleetError('--plugins multicluster');
  if (isHelmOperatorProject(project)) throw new UserError('--plugins multicluster: a chart-backed operator reconciles its own cluster only');
  const plugins = (project.extra.plugins ?? {}) as Record<string, unknown>;
  const updated: ProjectConfig = { ...project, extra: { ...project.extra, plugins: { ...plugins, [multiclusterPlugin]: {} } } };
  const { files, kept } = await rescaffold(root, project, updated);
  const path = projectWidePaths.rbacKustomization;
  const kustomization = await readIfExists(join(root, path));
  if (kustomization === undefined) kept.push(path);
  else files.push({ path, content: addResources(kustomization, fleetRbacResources, path), ownership: 'generated' });
  return { project: updated, files, kept };
}
