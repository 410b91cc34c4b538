import { posix } from 'node:path';
import { fullGroup, type ProjectConfig, type Resource } from '../../project/model.js';
import { webhooksOf, type ResourceWebhooks } from '../../project/webhooks.js';
import type { GeneratedFile } from '../../writer/index.js';
import { findBuiltinKind, isBuiltinPath } from './builtin-kinds.js';
import { kindNames } from './names.js';
import { render } from './render.js';

/** Where the webhooks of one kind live and what they are called. */
export interface WebhookNames {
  dir: string;
  webhookFile: string;
  webhookTestFile: string;
  conversionFile: string;
  conversionTestFile: string;
  /** `setupWidgetWebhook`: serves the defaulting and validating webhooks. */
  setupFunction: string;
  /** `setupWidgetConversion`: serves the conversion with its spokes. */
  conversionFunction: string;
}

/** The names of `resource`'s webhook files: `src/webhooks/<version>/` (multigroup: `src/webhooks/<group>/<version>/`). */
export function webhookNames(project: Pick<ProjectConfig, 'multigroup'>, resource: Pick<Resource, 'group' | 'version' | 'kind'>): WebhookNames {
  const lower = resource.kind.toLowerCase();
  const dir = project.multigroup ? `src/webhooks/${resource.group}/${resource.version}` : `src/webhooks/${resource.version}`;
  return {
    dir,
    webhookFile: `${dir}/${lower}_webhook.ts`,
    webhookTestFile: `${dir}/${lower}_webhook.test.ts`,
    conversionFile: `${dir}/${lower}_conversion.ts`,
    conversionTestFile: `${dir}/${lower}_conversion.test.ts`,
    setupFunction: `setup${resource.kind}Webhook`,
    conversionFunction: `setup${resource.kind}Conversion`,
  };
}

/** The generated module src/main.ts calls to serve every webhook of the project. */
export const webhookSetupFile = 'src/webhooks/setup.ts';

/** What `create webhook` scaffolds for one kind. */
export interface WebhookScaffold {
  project: ProjectConfig;
  /** The kind, as PROJECT records it (with its `webhooks`). */
  resource: Resource;
  /** The license header of every source file (hack/boilerplate.txt), or ''. */
  boilerplate: string;
}

/**
 * The handler files of one kind's webhooks, from what PROJECT records for it: the
 * defaulting and validating webhooks with their markers and test, and the conversion with
 * its spokes and round-trip test. A plain function of PROJECT data, so that a tool
 * replaying PROJECT (`opgen upgrade`) scaffolds exactly what `create webhook` did.
 */
export function webhookFiles(scaffold: WebhookScaffold): GeneratedFile[] {
  const { project, resource } = scaffold;
  const webhooks = webhooksOf(resource);
  if (!webhooks) return [];
  const header = scaffold.boilerplate ? `${scaffold.boilerplate.trimEnd()}\n\n` : '';
  const files: GeneratedFile[] = [];
  if (webhooks.defaulting || webhooks.validation) files.push(...admissionFiles(project, resource, webhooks, header));
  if (webhooks.conversion) files.push(...conversionFiles(project, resource, webhooks, header));
  return files;
}

function admissionFiles(project: ProjectConfig, resource: Resource, webhooks: ResourceWebhooks, header: string): GeneratedFile[] {
  const names = kindNames(project, resource);
  const paths = webhookNames(project, resource);
  const builtin = isBuiltinPath(resource.path) ? findBuiltinKind(resource.group, resource.version, resource.kind) : undefined;
  const external = resource.extra.external === true && resource.path ? resource.path : undefined;
  const apiGroup = builtin ? builtin.apiGroup : names.fullGroup;
  const handle = builtin ? `kinds.${builtin.kind}` : names.handle;
  const handleModule = builtin ? '' : external ? moduleFrom(paths.dir, external) : moduleFrom(paths.dir, names.typesFile);
  const suffix = `${apiGroup.replaceAll('.', '-')}-${resource.version}-${names.lower}`;
  const customPaths = [
    ...(webhooks.defaultingPath ? [`defaulting: '${webhooks.defaultingPath}'`] : []),
    ...(webhooks.validationPath ? [`validation: '${webhooks.validationPath}'`] : []),
  ].join(', ');
  // kubebuilder's `<kind>-<version>`; the same kind and version in another group of the project
  // would give a second webhook of that name, which the API server refuses: that one names its group.
  const namesake = project.resources.some((r) => r !== resource && fullGroup(r) !== apiGroup && r.kind === resource.kind && r.version === resource.version && webhooksOf(r));
  const data = {
    header,
    kind: resource.kind,
    lower: names.lower,
    webhookName: namesake ? `${names.lower}-${resource.group.replaceAll('.', '-')}-${resource.version}` : `${names.lower}-${resource.version}`,
    variable: names.variable,
    plural: builtin ? builtin.plural : resource.plural,
    version: resource.version,
    apiVersion: apiGroup ? `${apiGroup}/${resource.version}` : resource.version,
    markerGroup: apiGroup || '""',
    mutatePath: webhooks.defaultingPath ?? `/mutate-${suffix}`,
    validatePath: webhooks.validationPath ?? `/validate-${suffix}`,
    customPaths,
    defaulting: webhooks.defaulting,
    validation: webhooks.validation,
    runtimeImports: [...(webhooks.validation ? ['deny'] : []), ...(builtin ? ['kinds'] : []), 'webhook', 'type Manager'].join(', '),
    handle,
    handleImport: names.handleImport,
    handleModule,
    setupFunction: paths.setupFunction,
    tierLabel: `${project.domain}/tier`,
    namespaced: builtin ? builtin.namespaced : names.namespaced,
    projectNamespaced: project.namespaced,
  };
  const files: GeneratedFile[] = [{ path: paths.webhookFile, ownership: 'user', content: render('webhook/webhook.ts', data) }];
  // The API-server test creates objects of the kind: a kind of this project, whose CRD `npm run manifests` writes.
  if (resource.api) {
    files.push({
      path: paths.webhookTestFile,
      ownership: 'user',
      content: render('webhook/webhook.test.ts', {
        ...data,
        crdBases: posix.relative(paths.dir, 'config/crd/bases'),
        webhookConfig: posix.relative(paths.dir, 'config/webhook'),
      }),
    });
  }
  return files;
}

function conversionFiles(project: ProjectConfig, resource: Resource, webhooks: ResourceWebhooks, header: string): GeneratedFile[] {
  const names = kindNames(project, resource);
  const paths = webhookNames(project, resource);
  const alias = (version: string) => `${resource.kind}${version.charAt(0).toUpperCase()}${version.slice(1)}`;
  const spokes = webhooks.spoke.map((version) => {
    const spoke = kindNames(project, { ...resource, version });
    return {
      version,
      alias: alias(version),
      module: moduleFrom(paths.dir, spoke.typesFile),
      apiVersion: `${names.fullGroup}/${version}`,
      variable: `${names.variable}${alias(version).slice(resource.kind.length)}Conversion`,
      arbitrary: `${names.variable}${alias(version).slice(resource.kind.length)}Object`,
    };
  });
  const data = {
    header,
    kind: resource.kind,
    lower: names.lower,
    hubVersion: resource.version,
    hubAlias: alias(resource.version),
    hubModule: moduleFrom(paths.dir, names.typesFile),
    hubApiVersion: `${names.fullGroup}/${resource.version}`,
    spokes,
    setupFunction: paths.conversionFunction,
    namespaced: names.namespaced,
    projectNamespaced: project.namespaced,
    crdBases: posix.relative(paths.dir, 'config/crd/bases'),
    crdName: `${resource.plural}.${names.fullGroup}`,
  };
  return [
    { path: paths.conversionFile, ownership: 'user', content: render('webhook/conversion.ts', data) },
    { path: paths.conversionTestFile, ownership: 'user', content: render('webhook/conversion.test.ts', data) },
  ];
}

/** The ESM specifier of `target` (a project file or an npm module) as imported from `fromDir`. */
function moduleFrom(fromDir: string, target: string): string {
  if (!target.startsWith('src/')) return target;
  const path = posix.relative(fromDir, target).replace(/\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}

/** The kinds of `project` with webhooks, each with what PROJECT records for it. */
export function webhookResources(project: ProjectConfig): { resource: Resource; webhooks: ResourceWebhooks }[] {
  return project.resources.flatMap((resource) => {
    const webhooks = webhooksOf(resource);
    return webhooks && (webhooks.defaulting || webhooks.validation || webhooks.conversion) ? [{ resource, webhooks }] : [];
  });
}

/** The names the project's webhook configurations and Service have once config/default prefixes them. */
export function webhookObjectNames(projectName: string) {
  return {
    service: `${projectName}-webhook-service`,
    secret: `${projectName}-webhook-server-cert`,
    mutating: `${projectName}-mutating-webhook-configuration`,
    validating: `${projectName}-validating-webhook-configuration`,
  };
}

/** The CRD names (`<plural>.<group>`) whose conversion the project's webhook serves. */
export function conversionCrds(project: ProjectConfig): string[] {
  return webhookResources(project)
    .filter(({ webhooks }) => webhooks.conversion)
    .map(({ resource }) => `${resource.plural}.${fullGroup(resource)}`);
}

/**
 * src/webhooks/setup.ts, regenerated from PROJECT by every `create webhook`: configures the
 * manager's webhook server (its port and certificate from the manager's flags; without
 * `--webhook-cert-path`, the built-in certificates kept in a Secret of the manager's
 * namespace) and serves each kind's webhooks.
 */
export function webhookSetup(project: ProjectConfig, boilerplate: string): GeneratedFile {
  const header = boilerplate ? `${boilerplate.trimEnd()}\n\n` : '';
  const entries = webhookResources(project);
  const setups = entries.flatMap(({ resource, webhooks }) => {
    const paths = webhookNames(project, resource);
    const group = resource.group.split(/[.-]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');
    const found: { name: string; alias: string; module: string }[] = [];
    if (webhooks.defaulting || webhooks.validation) {
      found.push({ name: paths.setupFunction, alias: `setup${group}${resource.kind}Webhook`, module: moduleFrom('src/webhooks', paths.webhookFile) });
    }
    if (webhooks.conversion) {
      found.push({ name: paths.conversionFunction, alias: `setup${group}${resource.kind}Conversion`, module: moduleFrom('src/webhooks', paths.conversionFile) });
    }
    return found;
  });
  // The same kind in two groups: the second import needs another local name.
  const counts = new Map<string, number>();
  for (const setup of setups) counts.set(setup.name, (counts.get(setup.name) ?? 0) + 1);
  const imports = setups.map((setup) => ({ ...setup, local: (counts.get(setup.name) ?? 0) > 1 ? setup.alias : setup.name }));
  const objects = webhookObjectNames(project.projectName);
  const admission = entries.some(({ webhooks }) => webhooks.defaulting || webhooks.validation);
  return {
    path: webhookSetupFile,
    ownership: 'generated',
    content: render('webhook/setup.ts', {
      header,
      imports: imports.map((i) => ({ binding: i.local === i.name ? i.name : `${i.name} as ${i.local}`, module: i.module })),
      calls: imports.map((i) => i.local),
      secret: objects.secret,
      service: objects.service,
      mutating: entries.some(({ webhooks }) => webhooks.defaulting) ? objects.mutating : '',
      validating: entries.some(({ webhooks }) => webhooks.validation) ? objects.validating : '',
      admission,
      crds: conversionCrds(project).map((name) => `'${name}'`).join(', '),
    }),
  };
}
