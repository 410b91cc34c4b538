import { UserError } from '../../errors.js';
import type { ProjectConfig, Resource } from '../../project/model.js';
import { projectFileName } from '../../project/model.js';
import { serializeProject } from '../../project/serialize.js';
import type { GeneratedFile } from '../../writer/index.js';
import { crdResources, setupAlias } from './api.js';
import { crdKustomization, addResources, samplesKustomization } from './config/kustomize.js';
import { fleetRbacResources, rbacBaseResources, rbacKustomization } from './config/rbac.js';
import { isMulticlusterProject } from '../multicluster/plugin.js';
import { kindNames } from './names.js';
import { registerController } from './register-controller.js';

/** The project-wide files `create api` changes, as they are on disk now (undefined: missing). */
export interface CurrentProjectFiles {
  main: string | undefined;
  crdKustomization: string | undefined;
  rbacKustomization: string | undefined;
  samplesKustomization: string | undefined;
}

export const projectWidePaths = {
  main: 'src/main.ts',
  crdKustomization: 'config/crd/kustomization.yaml',
  rbacKustomization: 'config/rbac/kustomization.yaml',
  samplesKustomization: 'config/samples/kustomization.yaml',
} as const;

/**
 * PROJECT with `resource` recorded, and the entries `resource` needs in the kustomizations
 * and src/main.ts, each added to the file as it is now so the user's changes stay. A file
 * that is gone is written anew from the whole project.
 */
export function apiProjectUpdates(
  project: ProjectConfig,
  resource: Resource,
  scaffold: { withResource: boolean; withController: boolean },
  current: CurrentProjectFiles,
): GeneratedFile[] {
  const names = kindNames(project, resource);
  const files: GeneratedFile[] = [{ path: projectFileName, content: serializeProject(project), ownership: 'generated' }];
  const update = (path: string, text: string | undefined, entries: string[], fresh: () => string) => {
    files.push({ path, ownership: 'generated', content: text === undefined ? fresh() : addResources(text, entries, path) });
  };
  if (scaffold.withResource) {
    update(projectWidePaths.crdKustomization, current.crdKustomization, [names.crdEntry], () =>
      crdKustomization(crdResources(project)),
    );
    update(projectWidePaths.rbacKustomization, current.rbacKustomization, kindRoles(project, resource), () =>
      rbacKustomization([...new Set([...rbacBaseResources, ...(isMulticlusterProject(project) ? fleetRbacResources : []), ...project.resources.filter((r) => r.api).flatMap((r) => kindRoles(project, r))])]),
    );
    update(projectWidePaths.samplesKustomization, current.samplesKustomization, [sampleEntry(project, resource)], () =>
      samplesKustomization(project.resources.filter((r) => r.api).map((r) => sampleEntry(project, r))),
    );
  }
  if (scaffold.withController) {
    if (current.main === undefined) {
      throw new UserError(`${projectWidePaths.main} not found: it is where controllers are registered`, {
        file: projectWidePaths.main,
      });
    }
    const content = registerController(current.main, {
      setupFunction: names.setupFunction,
      module: names.controllerImportFromMain,
      alias: setupAlias(resource),
    });
    files.push({ path: projectWidePaths.main, ownership: 'generated', content });
  }
  return files;
}

function kindRoles(project: ProjectConfig, resource: Resource): string[] {
  const stem = kindNames(project, resource).roleFileStem;
  return [`${stem}_admin_role.yaml`, `${stem}_editor_role.yaml`, `${stem}_viewer_role.yaml`];
}

function sampleEntry(project: ProjectConfig, resource: Resource): string {
  return kindNames(project, resource).sampleFile.slice('config/samples/'.length);
}
