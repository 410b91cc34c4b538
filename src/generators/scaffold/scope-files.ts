import type { ProjectConfig } from '../../project/model.js';
import type { GeneratedFile } from '../../writer/index.js';
import { apiFiles, setupAlias } from './api.js';
import { managerFiles } from './config/manager.js';
import { rbacFiles } from './config/rbac.js';
import { e2eData, mainData, readmeData } from './init.js';
import { kindNames } from './names.js';
import { registerController } from './register-controller.js';
import { render } from './render.js';
import { isMulticlusterProject } from '../multicluster/plugin.js';

/**
 * The scaffolded files whose content depends on whether the operator watches one namespace
 * (`namespaced`) or a fleet (the multicluster plugin), as `init` and each `create api` of
 * `project` wrote them: src/main.ts with every controller registered, the README, the e2e
 * test, config/manager and config/rbac, and the controllers and their tests. `opgen edit
 * --namespaced` and `--plugins multicluster` compare these for the old and the new setting
 * with the disk, to tell which files they may rewrite. `boilerplate` is
 * hack/boilerplate.txt ('' without one).
 */
export function scopeDependentFiles(project: ProjectConfig, boilerplate: string): GeneratedFile[] {
  const header = boilerplate ? `${boilerplate.trimEnd()}\n\n` : '';
  let main = render('init/main.ts', mainData(project, header));
  const controllers: GeneratedFile[] = [];
  project.resources.forEach((resource, i) => {
    if (!resource.controller) return;
    const names = kindNames(project, resource);
    main = registerController(main, { setupFunction: names.setupFunction, module: names.controllerImportFromMain, alias: setupAlias(resource) });
    const earlier = { ...project, resources: project.resources.slice(0, i) };
    const files = apiFiles({ project: earlier, resource, withResource: false, withController: true, boilerplate });
    controllers.push(...files.filter((file) => file.path === names.controllerTestFile || file.path === names.controllerFile));
  });
  return [
    { path: 'src/main.ts', content: main, ownership: 'user' },
    {
      path: 'README.md',
      content: render('init/README.md', readmeData(project)),
      ownership: 'user',
    },
    {
      path: 'test/e2e/operator.test.ts',
      content: render('init/e2e.test.ts', e2eData(project, header)),
      ownership: 'user',
    },
    ...managerFiles(project.projectName, project.namespaced, isMulticlusterProject(project)),
    ...rbacFiles(project.projectName, project.namespaced, isMulticlusterProject(project)),
    ...controllers,
  ];
}
