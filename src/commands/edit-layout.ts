import { join } from 'node:path';
import { UserError } from '../errors.js';
import { isBuiltinPath, isForeignKind, findBuiltinKind } from '../generators/scaffold/builtin-kinds.js';
import { projectWidePaths } from '../generators/scaffold/api-updates.js';
import { boilerplatePath } from '../generators/scaffold/init.js';
import { isMulticlusterProject, namespacedFleetError } from '../generators/multicluster/plugin.js';
import { scopeDependentFiles } from '../generators/scaffold/scope-files.js';
import { fullGroup, projectFileName, type ProjectConfig } from '../project/model.js';
import type { GeneratedFile } from '../writer/index.js';
import { readIfExists } from '../read-if-exists.js';

/** What `opgen edit --multigroup` / `--namespaced` change, and what they leave to the user. */
export interface LayoutEdit {
  project: ProjectConfig;
  files: GeneratedFile[];
  /** Files that depend on the change but hold the user's edits: kept, for the user to adapt. */
  kept: string[];
}

/**
 * The project with `multigroup` and `namespaced` set as asked. As kubebuilder's `edit`,
 * `--multigroup` only changes where new kinds go: existing ones stay where PROJECT's `path`
 * says. `--namespaced` rewrites what the scaffold made of the old setting (src/main.ts,
 * config/manager, config/rbac, README, the controllers' tests) where the file is still
 * exactly that, and keeps a file the user changed; `opgen manifests` then writes the Role
 * or ClusterRole.
 */
export async function layoutEdit(
  root: string,
  project: ProjectConfig,
  wanted: { multigroup?: boolean; namespaced?: boolean },
): Promise<LayoutEdit> {
  const updated: ProjectConfig = {
    ...project,
    multigroup: wanted.multigroup ?? project.multigroup,
    namespaced: wanted.namespaced ?? project.namespaced,
  };
  if (!updated.multigroup) {
    const groups = [...new Set(project.resources.filter((r) => !isForeignKind(r)).map(fullGroup))];
    if (groups.length > 1) {
      throw new UserError(
        `--multigroup=false: the project holds the groups ${groups.join(', ')}; one group fits in a project that is not multigroup`,
        { file: projectFileName },
      );
    }
  }
  if (updated.namespaced && !project.namespaced) {
    if (isMulticlusterProject(project)) throw namespacedFleetError('--namespaced');
    const clusterScoped = project.resources.find((r) =>
      r.api ? !r.api.namespaced : r.extra.namespaced === false || (isBuiltinPath(r.path) && findBuiltinKind(r.group, r.version, r.kind)?.namespaced === false),
    );
    if (clusterScoped) {
      throw new UserError(
        `--namespaced: ${clusterScoped.kind} (${fullGroup(clusterScoped) || 'core'}/${clusterScoped.version}) is cluster-scoped, which an operator with rights in one namespace cannot serve`,
        { file: projectFileName },
      );
    }
  }
  if (updated.namespaced === project.namespaced) return { project: updated, files: [], kept: [] };
  return { project: updated, ...(await rescaffold(root, project, updated)) };
}

/**
 * The scaffold's files that differ between the settings of `project` and of `updated`, as
 * `updated` would have them where the file on disk is still exactly what the scaffold made
 * of `project`; a file the user changed is kept and named. config/rbac/kustomization.yaml
 * lists each kind's roles too, so it is left to the caller.
 */
export async function rescaffold(root: string, project: ProjectConfig, updated: ProjectConfig): Promise<Omit<LayoutEdit, 'project'>> {
  const boilerplate = await readIfExists(join(root, boilerplatePath)) ?? '';
  const before = new Map(scopeDependentFiles(project, boilerplate).map((file) => [file.path, file.content]));
  const files: GeneratedFile[] = [];
  const kept: string[] = [];
  for (const file of scopeDependentFiles(updated, boilerplate)) {
    // The Role or ClusterRole of the markers is opgen manifests' to write.
    if (file.path === 'config/rbac/role.yaml' || file.path === projectWidePaths.rbacKustomization || before.get(file.path) === file.content) continue;
    const current = await readIfExists(join(root, file.path));
    if (current === before.get(file.path)) files.push({ ...file, ownership: 'generated' });
    else if (current !== file.content) kept.push(file.path);
  }
  return { files, kept };
}
