import { posix } from 'node:path';
import { pluralOf } from '../../names/plural.js';
import type { ProjectConfig, Resource } from '../../project/model.js';
import type { GeneratedFile } from '../../writer/index.js';
import { isMulticlusterProject } from '../multicluster/plugin.js';
import { kindRoleFiles } from './config/rbac.js';
import { findBuiltinKind, isBuiltinPath, type BuiltinKind } from './builtin-kinds.js';
import { kindNames, type KindNames } from './names.js';
import { packagedTemplates, type Templates } from './render.js';
import { commonLabels, yamlFile } from './yaml-file.js';

/** What `opgen create api` scaffolds for one kind. */
export interface ApiScaffold {
  /** The project as it was before this kind was added: earlier kinds decide the storage version. */
  project: ProjectConfig;
  resource: Resource;
  /** Write the API types, sample and roles. */
  withResource: boolean;
  /** Write the controller and its test. */
  withController: boolean;
  /** The license header of every source file (hack/boilerplate.txt), or ''. */
  boilerplate: string;
  /** The template set to render (default: the packaged one). */
  templates?: Templates;
}

/**
 * The files of one kind: types and groupversion_info.ts, controller and test, sample, and
 * admin/editor/viewer roles. The project-wide files this touches (PROJECT, src/main.ts,
 * kustomizations) are {@link apiProjectUpdates}'s.
 */
export function apiFiles(scaffold: ApiScaffold): GeneratedFile[] {
  const { project, resource } = scaffold;
  const render = scaffold.templates ?? packagedTemplates;
  const names = kindNames(project, resource);
  const header = scaffold.boilerplate ? `${scaffold.boilerplate.trimEnd()}\n\n` : '';
  const files: GeneratedFile[] = [];
  if (scaffold.withResource) {
    const firstVersion = !project.resources.some(
      (other) => other.api && other.group === resource.group && other.kind === resource.kind && other.version !== resource.version,
    );
    const resourceArgs = [
      ...(resource.plural !== pluralOf(resource.kind) ? [`path=${resource.plural}`] : []),
      ...(names.namespaced ? [] : ['scope=Cluster']),
    ];
    files.push(
      {
        path: names.groupVersionFile,
        ownership: 'once',
        content: render('api/groupversion_info.ts', { header, fullGroup: names.fullGroup, version: names.version }),
      },
      {
        path: names.typesFile,
        ownership: 'user',
        content: render('api/types.ts', {
          header,
          kind: names.kind,
          lower: names.lower,
          plural: names.plural,
          fullGroup: names.fullGroup,
          version: names.version,
          namespaced: names.namespaced,
          resourceMarker: resourceArgs.join(','),
          // With several versions of a kind exactly one is stored; the first keeps that role.
          storageVersion: firstVersion,
        }),
      },
      {
        path: names.sampleFile,
        ownership: 'once',
        content: yamlFile(['A sample object: fill in its spec with the fields of the kind\'s Spec in src/api.'], {
          apiVersion: `${names.fullGroup}/${names.version}`,
          kind: names.kind,
          metadata: { labels: commonLabels(project.projectName), name: `${names.lower}-sample` },
          spec: {},
        }),
      },
    );
    // Roles are per group and kind: a second version shares the first one's.
    if (firstVersion) files.push(...kindRoleFiles(project.projectName, names));
  }
  const builtin = isBuiltinPath(resource.path) ? findBuiltinKind(resource.group, resource.version, resource.kind) : undefined;
  const external = externalKind(resource);
  if (external?.localFile && scaffold.withController) {
    files.push({
      path: external.localFile,
      ownership: 'once',
      content: render('api/external_kind.ts', { header, kind: names.kind, apiGroup: names.fullGroup, version: names.version, plural: names.plural, namespaced: names.namespaced }),
    });
  }
  if (scaffold.withController && builtin) files.push(...builtinControllerFiles(project, builtin, names, header, render));
  else if (scaffold.withController && external) files.push(...externalControllerFiles(project, external, names, header, render));
  else if (scaffold.withController) {
    const common = {
      header,
      kind: names.kind,
      handle: names.handle,
      handleImport: names.handleImport,
      lower: names.lower,
      variable: names.variable,
      typesImport: names.typesImportFromController,
      setupFunction: names.setupFunction,
      namespaced: names.namespaced,
      multicluster: isMulticlusterProject(project),
    };
    files.push(
      {
        path: names.controllerFile,
        ownership: 'user',
        content: render('api/controller.ts', {
          ...common,
          reconcileFunction: names.reconcileFunction,
          fullGroup: names.fullGroup,
          plural: names.plural,
        }),
      },
      {
        path: names.controllerTestFile,
        ownership: 'user',
        content: render(common.multicluster ? 'api/controller_multicluster.test.ts' : 'api/controller.test.ts', {
          ...common,
          projectNamespaced: project.namespaced,
          crdBases: names.crdBasesFromControllerTest,
        }),
      },
    );
  }
  return files;
}

/** The controller and test of a built-in kind: it uses the runtime's `kinds.*` handle, no types of the project's. */
function builtinControllerFiles(project: ProjectConfig, builtin: BuiltinKind, names: KindNames, header: string, render: Templates): GeneratedFile[] {
  return foreignControllerFiles(names, render, {
    header,
    kind: builtin.kind,
    lower: names.lower,
    variable: names.variable,
    plural: builtin.plural,
    namespaced: builtin.namespaced,
    projectNamespaced: project.namespaced,
    apiVersion: builtin.apiGroup ? `${builtin.apiGroup}/${builtin.version}` : builtin.version,
    rbacGroup: builtin.apiGroup || 'core',
    setupFunction: names.setupFunction,
    reconcileFunction: names.reconcileFunction,
    fromKinds: true,
    handle: `kinds.${builtin.kind}`,
    handleModule: '',
    handleImport: '',
    owner: 'the cluster',
    crdNote: 'a built-in kind, no CRD to install.',
    externalCrds: '',
  });
}

/** Where an external kind's handle comes from: an npm module, or a file of the project opgen writes once. */
interface ExternalKind {
  module: string;
  localFile: string | undefined;
}

/** The external kind PROJECT records (kubebuilder's `external: true`), if `resource` is one. */
function externalKind(resource: Resource): ExternalKind | undefined {
  if (resource.extra.external !== true || !resource.path) return undefined;
  const local = resource.path.startsWith('src/') ? resource.path : undefined;
  return { module: resource.path, localFile: local };
}

/** The controller and test of an external kind (kubebuilder's --external-api-path): its handle is imported from where PROJECT says. */
function externalControllerFiles(project: ProjectConfig, external: ExternalKind, names: KindNames, header: string, render: Templates): GeneratedFile[] {
  const controllerDir = posix.dirname(names.controllerFile);
  const module = external.localFile ? relativeModule(controllerDir, external.localFile) : external.module;
  return foreignControllerFiles(names, render, {
    header,
    kind: names.kind,
    lower: names.lower,
    variable: names.variable,
    plural: names.plural,
    namespaced: names.namespaced,
    projectNamespaced: project.namespaced,
    apiVersion: `${names.fullGroup}/${names.version}`,
    rbacGroup: names.fullGroup,
    setupFunction: names.setupFunction,
    reconcileFunction: names.reconcileFunction,
    fromKinds: false,
    handle: names.handle,
    handleModule: module,
    handleImport: names.handleImport,
    owner: 'its own project',
    crdNote: 'its CRD comes from its own project: put it in config/crd/external/.',
    externalCrds: posix.relative(controllerDir, 'config/crd/external'),
  });
}

function relativeModule(fromDir: string, file: string): string {
  const path = posix.relative(fromDir, file).replace(/\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}

function foreignControllerFiles(names: KindNames, render: Templates, data: Record<string, unknown>): GeneratedFile[] {
  return [
    { path: names.controllerFile, ownership: 'user', content: render('api/foreign_controller.ts', data) },
    { path: names.controllerTestFile, ownership: 'user', content: render('api/foreign_controller.test.ts', data) },
  ];
}

/** `Storage` + `DemoVolume` → `setupStorageDemoVolumeController`: the import alias when a kind's name repeats across groups. */
export function setupAlias(resource: Pick<Resource, 'group' | 'kind'>): string {
  const group = resource.group
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return `setup${group}${resource.kind}Controller`;
}

/** The CRD file of each kind with API types, in the order the kinds were added. */
export function crdResources(project: ProjectConfig): string[] {
  return [...new Set(project.resources.filter((r) => r.api).map((r) => kindNames(project, r).crdEntry))];
}
