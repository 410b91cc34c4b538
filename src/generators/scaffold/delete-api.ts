import { isMap, isSeq, parseDocument } from 'yaml';
import { UserError } from '../../errors.js';
import { fullGroup, projectFileName, sameGvk, type ProjectConfig, type Resource } from '../../project/model.js';
import { serializeProject } from '../../project/serialize.js';
import type { GeneratedFile } from '../../writer/index.js';
import { projectWidePaths } from './api-updates.js';
import { removeResources } from './config/kustomize.js';
import { kindNames } from './names.js';
import { previousScaffold } from './previous.js';
import { unregisterController } from './unregister-controller.js';
import { projectWithoutKind, webhookRemoval } from './webhook-removal.js';

/** What `opgen delete api` does to a project: files to rewrite, to delete, and to keep. */
export interface DeletePlan {
  updates: GeneratedFile[];
  deletes: string[];
  /** The user's files (changed since opgen wrote them), kept without --force. */
  kept: string[];
  /** What the user must finish by hand, one line each. */
  notes: string[];
}

/**
 * The inverse of `create api` and `manifests` for one kind version: its types, controller
 * and test (and their registration in src/main.ts), sample, roles, CRD (or only its
 * version, while others remain), kustomization entries, PROJECT record and webhooks
 * ({@link webhookRemoval}). A scaffolded
 * file that differs from what opgen wrote holds the user's work: kept unless `force`.
 * `disk` holds the current text of every path the plan may touch (undefined: missing).
 */
export function deleteApiPlan(
  project: ProjectConfig,
  resource: Resource,
  disk: ReadonlyMap<string, string | undefined>,
  options: { boilerplate: string; force: boolean },
): DeletePlan {
  const names = kindNames(project, resource);
  const remaining = project.resources.filter((r) => !sameGvk(r, resource));
  const otherVersions = remaining.filter((r) => r.api && fullGroup(r) === fullGroup(resource) && r.kind === resource.kind);
  if (resource.controller && otherVersions.length > 0) {
    throw new UserError(
      `the controller of ${resource.kind} is scaffolded on ${resource.version}, and ${otherVersions.map((r) => r.version).join(', ')} remain${otherVersions.length > 1 ? '' : 's'}; nothing was deleted`,
      { file: projectFileName },
      'delete the other versions first, or move the controller to one of them and record controller: true there',
    );
  }
  const after = projectWithoutKind(project, resource);
  const previous = previousScaffold(project, options.boilerplate);
  const updates: GeneratedFile[] = [{ path: projectFileName, content: serializeProject(after), ownership: 'generated' }];
  const deletes: string[] = [];
  const kept: string[] = [];
  const scaffolded = (path: string) => {
    const current = disk.get(path);
    if (current === undefined) return;
    if (options.force || current === previous.get(path)) deletes.push(path);
    else kept.push(path);
  };
  const update = (path: string, change: (text: string) => string) => {
    const current = disk.get(path);
    if (current === undefined) return;
    const content = change(current);
    if (content !== current) updates.push({ path, content, ownership: 'generated' });
  };

  if (resource.api) {
    const lastVersion = otherVersions.length === 0;
    scaffolded(names.typesFile);
    if (!remaining.some((r) => r.api && kindNames(project, r).apiDir === names.apiDir)) scaffolded(names.groupVersionFile);
    scaffolded(names.sampleFile);
    update(projectWidePaths.samplesKustomization, (text) => removeResources(text, [names.sampleFile.slice('config/samples/'.length)], projectWidePaths.samplesKustomization));
    const crd = `config/crd/${names.crdEntry}`;
    if (lastVersion) {
      for (const suffix of ['admin', 'editor', 'viewer']) scaffolded(`config/rbac/${names.roleFileStem}_${suffix}_role.yaml`);
      const roles = ['admin', 'editor', 'viewer'].map((suffix) => `${names.roleFileStem}_${suffix}_role.yaml`);
      update(projectWidePaths.rbacKustomization, (text) => removeResources(text, roles, projectWidePaths.rbacKustomization));
      update(projectWidePaths.crdKustomization, (text) => removeResources(text, [names.crdEntry], projectWidePaths.crdKustomization));
      if (disk.get(crd) !== undefined) deletes.push(crd);
    } else {
      update(crd, (text) => withoutVersion(text, resource.version, crd));
    }
  }
  // An external kind's handle file that opgen wrote under src/ (create api --external-api-path).
  const handle = resource.extra.external === true && resource.path?.startsWith('src/') ? resource.path : undefined;
  if (handle && !remaining.some((r) => r.path === handle)) scaffolded(handle);
  if (resource.controller) {
    scaffolded(names.controllerFile);
    scaffolded(names.controllerTestFile);
    if (!kept.includes(names.controllerFile)) {
      update(projectWidePaths.main, (text) =>
        unregisterController(text, { setupFunction: names.setupFunction, module: names.controllerImportFromMain }),
      );
    }
  }
  // The webhooks' changes to src/main.ts and the kustomizations go on top of the kind's.
  const planned = new Map(updates.map((file) => [file.path, file]));
  const webhooks = webhookRemoval(project, after, resource, (path) => planned.get(path)?.content ?? disk.get(path), options);
  for (const file of webhooks.updates) planned.set(file.path, file);
  return {
    updates: [...planned.values()],
    deletes: [...deletes, ...webhooks.deletes].sort(),
    kept: [...kept, ...webhooks.kept].sort(),
    notes: webhooks.notes,
  };
}

/** A CRD's YAML without one of its versions; the next `opgen manifests` writes it afresh anyway. */
function withoutVersion(text: string, version: string, file: string): string {
  const doc = parseDocument(text);
  const spec = isMap(doc.contents) ? doc.contents.get('spec', true) : undefined;
  const versions = isMap(spec) ? spec.get('versions', true) : undefined;
  if (doc.errors.length > 0 || !isSeq(versions)) throw new UserError('not a CustomResourceDefinition with spec.versions', { file });
  versions.items = versions.items.filter((item) => !(isMap(item) && item.get('name') === version));
  return doc.toString({ lineWidth: 0, indentSeq: true });
}
