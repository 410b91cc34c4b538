import { apiFiles } from '../generators/scaffold/api.js';
import { apiProjectUpdates, projectWidePaths } from '../generators/scaffold/api-updates.js';
import { initFiles } from '../generators/scaffold/init.js';
import { webhookProjectUpdates } from '../generators/scaffold/webhook-updates.js';
import { webhookFiles, webhookResources } from '../generators/scaffold/webhook.js';
import { projectFileName, type ProjectConfig, type Resource } from '../project/model.js';
import type { GeneratedFile } from '../writer/index.js';
import type { ScaffoldFiles, ScaffoldVersion } from './scaffold-version.js';

/**
 * What of a project's scaffold PROJECT does not record, read from the project itself:
 * the license header, the package.json fields `init` derived from its flags, and the specs
 * of opgen's packages and dev tools (kept as the project has them on both sides of the
 * merge, so an upgrade changes them only on purpose).
 */
export interface ProjectSettings {
  boilerplate: string;
  license: 'apache2' | 'none';
  owner: string | undefined;
  runtimeSpec: string;
  cliSpec: string;
  devTools: Record<string, string>;
}

/** One command of the project's history, as PROJECT records it. */
export type ScaffoldStep =
  | { command: 'init' }
  | { command: 'create api'; resource: Resource; index: number }
  | { command: 'create webhook'; resource: Resource };

/**
 * The commands that made the project, in order: `init`, `create api` for each kind PROJECT
 * lists, then `create webhook` for each kind PROJECT records webhooks for. PROJECT does not
 * say when a webhook was created; its files depend on PROJECT's final state alone, so
 * replaying them last gives what `create webhook` wrote.
 */
export function scaffoldSteps(project: ProjectConfig): ScaffoldStep[] {
  return [
    { command: 'init' },
    ...project.resources.map((resource, index) => ({ command: 'create api' as const, resource, index })),
    ...webhookResources(project).map(({ resource }) => ({ command: 'create webhook' as const, resource })),
  ];
}

/** What to do instead for a chart-backed project, whose scaffold is not replayed. */
export const upgradeByHand = 'upgrade it by hand: compare with a new project made by opgen init --plugins helm-operator and create api --helm-chart';

/**
 * The whole project as `version`'s opgen scaffolds it: every step of {@link scaffoldSteps}
 * replayed on files in memory, each seeing what the steps before it wrote. PROJECT itself is
 * left out: the caller writes it.
 */
export function scaffold(project: ProjectConfig, version: ScaffoldVersion, settings: ProjectSettings): ScaffoldFiles {
  const files: ScaffoldFiles = new Map();
  const put = (generated: readonly GeneratedFile[]) => {
    for (const file of generated) {
      if (file.path !== projectFileName) files.set(file.path, { content: file.content, ...(file.executable ? { executable: true } : {}) });
    }
  };
  for (const step of scaffoldSteps(project)) {
    if (step.command === 'init') {
      put(
        initFiles({
          project: { ...project, resources: [] },
          license: settings.license,
          owner: settings.owner,
          // The header is the project's own hack/boilerplate.txt, so no year is rendered.
          year: 0,
          boilerplate: settings.boilerplate,
          runtimeSpec: settings.runtimeSpec,
          cliSpec: settings.cliSpec,
          devTools: settings.devTools,
          templates: version.templates,
        }),
      );
      continue;
    }
    if (step.command === 'create webhook') {
      put(webhookFiles({ project, resource: step.resource, boilerplate: settings.boilerplate }).filter((file) => !files.has(file.path)));
      put(webhookProjectUpdates(project, settings.boilerplate, (path) => files.get(path)?.content));
      continue;
    }
    const { resource, index } = step;
    const earlier = { ...project, resources: project.resources.slice(0, index) };
    const withResource = Boolean(resource.api);
    const withController = resource.controller;
    // Files a kind added before keep their first content, as `create api` never rewrites them.
    put(
      apiFiles({ project: earlier, resource, withResource, withController, boilerplate: settings.boilerplate, templates: version.templates }).filter(
        (file) => !files.has(file.path),
      ),
    );
    const current = (path: string) => files.get(path)?.content;
    put(
      apiProjectUpdates({ ...project, resources: project.resources.slice(0, index + 1) }, resource, { withResource, withController }, {
        main: current(projectWidePaths.main),
        crdKustomization: current(projectWidePaths.crdKustomization),
        rbacKustomization: current(projectWidePaths.rbacKustomization),
        samplesKustomization: current(projectWidePaths.samplesKustomization),
      }),
    );
  }
  version.adjust?.(files);
  return files;
}
