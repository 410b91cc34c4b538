import { KUBERNETES_VERSION } from '@opgen/runtime/downloads';
import { createHash } from 'node:crypto';
import { projectFileName, type ProjectConfig } from '../../project/model.js';
import { serializeProject } from '../../project/serialize.js';
import type { GeneratedFile } from '../../writer/index.js';
import { defaultFiles } from './config/default.js';
import { networkPolicyFiles, prometheusFiles } from './config/extras.js';
import { crdKustomization, samplesKustomization } from './config/kustomize.js';
import { managerFiles } from './config/manager.js';
import { rbacFiles } from './config/rbac.js';
import { packageJson, tsconfigFiles } from './package.js';
import type { InitScaffold } from './init-scaffold.js';
import { packagedTemplates } from './render.js';
import { workflowFiles } from './workflows.js';
import { isMulticlusterProject } from '../multicluster/plugin.js';

/** Where the license header of new source files lives; `create api` reads it back. */
export const boilerplatePath = 'hack/boilerplate.txt';

/** What the image build reads from the project, the only entries its include-only .dockerignore lets through. */
export const imageContext: readonly string[] = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src/'];

/** What the project's README.md is rendered from; `edit --namespaced` renders it again. */
export function readmeData(project: ProjectConfig): object {
  return { projectName: project.projectName, domain: project.domain, namespaced: project.namespaced, kubernetesVersion: KUBERNETES_VERSION };
}

/** Every file of a new project: "The generated project" of the architecture. */
export function initFiles(scaffold: InitScaffold): GeneratedFile[] {
  const { project } = scaffold;
  const render = scaffold.templates ?? packagedTemplates;
  const boilerplate =
    scaffold.boilerplate ?? (scaffold.license === 'apache2' ? render('init/boilerplate.txt', { year: scaffold.year, owner: scaffold.owner ?? '' }) : '');
  const header = boilerplate ? `${boilerplate.trimEnd()}\n\n` : '';
  const user = (path: string, content: string): GeneratedFile => ({ path, content, ownership: 'user' });
  return [
    { path: projectFileName, content: serializeProject(project), ownership: 'generated' },
    user('package.json', packageJson(scaffold)),
    ...tsconfigFiles().map((f) => user(f.path, f.content)),
    user('vitest.config.ts', render('init/vitest.config.ts', { header })),
    user('vitest.global-setup.ts', render('init/vitest.global-setup.ts', { header })),
    user('vitest.e2e.config.ts', render('init/vitest.e2e.config.ts', { header })),
    user('test/e2e/operator.test.ts', render('init/e2e.test.ts', e2eData(project, header))),
    user('eslint.config.js', render('init/eslint.config.js', { header })),
    ...workflowFiles(),
    user('Dockerfile', render('init/Dockerfile', {})),
    user('.dockerignore', render('init/dockerignore', { include: imageContext })),
    user('.gitignore', render('init/gitignore', {})),
    user('README.md', render('init/README.md', readmeData(project))),
    ...(boilerplate ? [user(boilerplatePath, boilerplate)] : []),
    user('src/main.ts', render('init/main.ts', mainData(project, header))),
    user('config/crd/kustomization.yaml', crdKustomization([])),
    user('config/samples/kustomization.yaml', samplesKustomization([])),
    ...rbacFiles(project.projectName, project.namespaced, isMulticlusterProject(project)),
    ...managerFiles(project.projectName, project.namespaced, isMulticlusterProject(project)),
    ...defaultFiles(project.projectName),
    ...prometheusFiles(project.projectName),
    ...networkPolicyFiles(project.projectName),
  ];
}

/** What test/e2e/operator.test.ts is rendered from; `edit --namespaced` renders it again. */
export function e2eData(project: ProjectConfig, header: string): object {
  return { header, projectName: project.projectName, namespaced: project.namespaced, multicluster: isMulticlusterProject(project) };
}

/** What src/main.ts is rendered from; `edit --namespaced` renders it again. */
export function mainData(project: ProjectConfig, header: string): object {
  return { header, namespaced: project.namespaced, multicluster: isMulticlusterProject(project), leaderElectionId: leaderElectionId(project) };
}

/**
 * `<hash>.<domain>`: a Lease name unique to the project and stable across runs, like
 * kubebuilder's, so replicas of one operator compete and other operators never do.
 */
export function leaderElectionId(project: ProjectConfig): string {
  const hash = createHash('sha256').update(`${project.projectName}.${project.domain}`).digest('hex').slice(0, 8);
  return `${hash}.${project.domain}`;
}
