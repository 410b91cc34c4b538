import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { UserError } from '../errors.js';
import { parseBool } from './bool-flag.js';
import { runCreateHelmApi } from './create-helm-api.js';
import { isHelmOperatorProject } from '../generators/helm-operator/plugin.js';
import { createWebhookCommand } from './create-webhook.js';
import { externalTarget, type ExternalTargetOptions } from './external-target.js';
import { apiFiles } from '../generators/scaffold/api.js';
import { apiProjectUpdates, projectWidePaths, type CurrentProjectFiles } from '../generators/scaffold/api-updates.js';
import { builtinKinds, findBuiltinKind, isForeignKind, type BuiltinKind } from '../generators/scaffold/builtin-kinds.js';
import { boilerplatePath } from '../generators/scaffold/init.js';
import { kindNames } from '../generators/scaffold/names.js';
import { previousScaffold } from '../generators/scaffold/previous.js';
import { protectUserEdits } from '../generators/scaffold/user-edits.js';
import { defaultedNames, heldAs, nameConflict } from '@opgen/runtime/internal/crd-names';
import { pluralOf } from '../names/plural.js';
import { validateGroup, validateKind, validatePlural, validateVersion } from '../names/validate.js';
import { loadProject } from '../project/load.js';
import { fullGroup, projectFileName, sameGvk, type ProjectConfig, type Resource } from '../project/model.js';
import { applyChanges, formatPlan, planChanges, type GeneratedFile } from '../writer/index.js';
import { readIfExists } from '../read-if-exists.js';
import { projectDirOption, type ProjectDirFlag } from './shared-options.js';

export interface CreateApiOptions extends ExternalTargetOptions {
  controller?: boolean;
  force?: boolean;
  dryRun?: boolean;
  helmChart?: string;
  helmChartRepo?: string;
  helmChartVersion?: string;
}

const apiExamples = `
Examples:
  # The DemoVolume kind of storage.<domain>/v1, with its controller
  $ opgen create api --group storage --version v1 --kind DemoVolume

  # A cluster-scoped kind whose plural is not the English one (that would be "indices")
  $ opgen create api --group search --version v1alpha1 --kind Index --plural indexes --namespaced=false

  # A second version of an existing kind: types only, the controller stays on v1
  $ opgen create api --group storage --version v2beta1 --kind DemoVolume --no-controller

  # A controller for a built-in kind (no CRD): apps/v1 Deployment, core/v1 Pod, …
  $ opgen create api --group apps --version v1 --kind Deployment --resource=false --controller

  # A controller for cert-manager's Certificate (cert-manager.io/v1), its handle written to src/external/
  $ opgen create api --group cert-manager --version v1 --kind Certificate --external-api-domain io --external-api-path src/external/certificate.ts

  # In a project made with init --plugins helm-operator: a kind reconciled by a local chart
  $ opgen create api --group web --version v1alpha1 --kind Site --helm-chart ./charts/site

  # Re-scaffold a kind: files you changed are kept, the others rewritten
  $ opgen create api --group storage --version v1 --kind DemoVolume --force`;

/** `opgen create`: adds to a project: an API (kind) with its controller, or a kind's webhooks. */
export function createCommand(): Command {
  return new Command('create')
    .description('add an API (kind) and its controller, or webhooks of a kind, to the project')
    .addHelpText('after', '\nExamples:\n  $ opgen create api --group storage --version v1 --kind DemoVolume\n  $ opgen create webhook --group storage --version v1 --kind DemoVolume --defaulting --programmatic-validation')
    .addCommand(createApiCommand())
    .addCommand(createWebhookCommand());
}

function createApiCommand(): Command {
  return new Command('api')
    .description('scaffold a kind: its API types, controller and test, sample, RBAC roles, and its registration in src/main.ts')
    .requiredOption('--group <group>', 'API group without the domain, e.g. storage')
    .requiredOption('--version <version>', 'API version, e.g. v1, v1alpha1, v2beta3')
    .requiredOption('--kind <kind>', 'kind in PascalCase, e.g. DemoVolume')
    .option('--plural <plural>', 'resource name in URLs (default: the English plural of the kind, in lower case)')
    .option('--namespaced [bool]', 'objects live in namespaces (default); --namespaced=false for cluster-scoped', parseBool)
    .option('--no-namespaced', 'cluster-scoped objects')
    .option('--resource [bool]', 'write the API types (default)', parseBool)
    .option('--no-resource', 'do not write API types (they exist already)')
    .option('--controller [bool]', 'write a controller (default)', parseBool)
    .option('--no-controller', 'do not write a controller')
    .option('--external-api-path <module>', 'a controller for a kind of another project: the npm module exporting its handle, or a file under src/ that opgen writes (e.g. src/external/certificate.ts)')
    .option('--external-api-domain <domain>', 'with --external-api-path: the domain the group completes, e.g. io for --group cert-manager (default: the project domain)')
    .option('--external-api-module <spec>', 'with --external-api-path: the npm package providing it, added to dependencies, e.g. @acme/cert-manager-api@^1.2.0')
    .option('--helm-chart <chart>', 'in a helm-operator project: the chart that reconciles the kind, a directory or repo/chart (helm pull)')
    .option('--helm-chart-repo <url>', 'with --helm-chart <name>: the chart repository to pull it from')
    .option('--helm-chart-version <version>', 'with a pulled --helm-chart: its version (default: the latest)')
    .option('--force', 're-scaffold an existing kind: rewrites the files you have not changed')
    .addOption(projectDirOption())
    .option('--dry-run', 'print what would be written; write nothing')
    .addHelpText('after', apiExamples)
    .action(async ({ dir, ...options }: CreateApiOptions & ProjectDirFlag) => {
      await runCreateApi(dir, options);
    });
}

/** Scaffolds a kind into the project at `root`; see {@link createApiCommand}. */
export async function runCreateApi(root: string, options: CreateApiOptions): Promise<void> {
  const dir = resolve(root);
  const project = await loadProject(dir, 'opgen create api');
  if (options.helmChart !== undefined || options.helmChartRepo !== undefined || options.helmChartVersion !== undefined || isHelmOperatorProject(project)) return runCreateHelmApi(dir, project, options);
  const builtin = builtinTarget(project, options);
  const external = externalTarget(project, options);
  const withResource = builtin || external ? false : (options.resource ?? true);
  const withController = options.controller ?? true;
  if (!withResource && !withController) throw new UserError('nothing to scaffold: --no-resource and --no-controller');

  const resource = builtin ? builtinResource(builtin) : (external ?? resolveResource(project, options));
  const index = project.resources.findIndex((r) => sameGvk(r, resource));
  const existing = project.resources[index];
  checkExisting(project, resource, existing, { withResource, withController, force: options.force ?? false });

  const names = kindNames(project, resource);
  if (!builtin && !external && !withResource && !existing?.api && (await readIfExists(join(dir, names.typesFile))) === undefined) {
    throw new UserError(
      `--no-resource: ${resource.kind} has no API types at ${names.typesFile}`,
      undefined,
      'create them first, or leave out --no-resource',
    );
  }

  const recorded: Resource = {
    ...resource,
    controller: withController || Boolean(existing?.controller),
    extra: { ...(existing?.extra ?? {}), ...resource.extra },
  };
  if (withResource || existing?.api) recorded.path = names.apiDir;
  else if (!builtin && !external) delete recorded.api;
  const updated: ProjectConfig = {
    ...project,
    resources: index >= 0 ? project.resources.map((r, i) => (i === index ? recorded : r)) : [...project.resources, recorded],
  };
  const earlier: ProjectConfig = { ...project, resources: index >= 0 ? project.resources.slice(0, index) : project.resources };
  const boilerplate = (await readIfExists(join(dir, boilerplatePath))) ?? '';

  const scaffolded = apiFiles({ project: earlier, resource, withResource, withController, boilerplate });
  const current = await readCurrent(dir);
  const onDisk = new Map<string, string | undefined>();
  for (const file of scaffolded) onDisk.set(file.path, await readIfExists(join(dir, file.path)));
  const { files, kept } = protectUserEdits(scaffolded, onDisk, previousScaffold(project, boilerplate), options.force ?? false);
  const all: GeneratedFile[] = [...files, ...apiProjectUpdates(updated, resource, { withResource, withController }, current)];
  if (options.externalApiModule) all.push(await withDependency(dir, options.externalApiModule));

  const changes = await planChanges(dir, all);
  const conflicts = changes.filter((c) => c.action === 'CONFLICT').map((c) => c.path);
  if (conflicts.length > 0) {
    const [verb, pronoun] = conflicts.length === 1 ? ['exists', 'it'] : ['exist', 'them'];
    throw new UserError(
      `${conflicts.join(', ')} already ${verb} and opgen did not scaffold ${pronoun} for this kind; nothing was written`,
      undefined,
      `move ${pronoun} away, or pass --force to keep ${pronoun} and write the rest`,
    );
  }
  if (!options.dryRun) await applyChanges(dir, changes);
  process.stdout.write(`${formatPlan(changes, { dryRun: options.dryRun ?? false })}\n`);
  for (const path of kept) process.stdout.write(`  kept ${path}: it differs from what opgen scaffolded; delete it and re-run with --force to regenerate it\n`);
  if (!options.dryRun && withResource) {
    process.stdout.write(`\nNext: describe ${resource.kind} in ${names.typesFile}, then run npm run manifests.\n`);
  }
}

/** The resource the flags describe, checked against the names rules and the project. */
function resolveResource(project: ProjectConfig, options: CreateApiOptions): Resource {
  validateGroup(options.group, project.domain);
  validateVersion(options.version);
  validateKind(options.kind);
  // Another version of the kind, whose plural and scope this one must share.
  const sibling = project.resources.find(
    (r) => r.api && r.group === options.group && r.kind === options.kind && r.version !== options.version,
  );
  const same = project.resources.find((r) => r.api && r.group === options.group && r.kind === options.kind && r.version === options.version);
  const plural = options.plural ?? same?.plural ?? sibling?.plural ?? pluralOf(options.kind);
  validatePlural(plural);
  const namespaced = options.namespaced ?? same?.api?.namespaced ?? sibling?.api?.namespaced ?? true;

  if (!project.multigroup) {
    const other = project.resources.find((r) => r.group !== options.group && !isForeignKind(r));
    if (other) {
      throw new UserError(
        `group "${options.group}": this project holds the group "${other.group}" only`,
        { file: projectFileName },
        'a project with several groups is made with opgen init --multigroup',
      );
    }
  }
  if (project.namespaced && !namespaced) {
    throw new UserError(
      `--namespaced=false: ${options.kind} would be cluster-scoped, but this operator only has rights in its own namespace`,
      { file: projectFileName },
      'the project was made with opgen init --namespaced',
    );
  }
  if (sibling && sibling.plural !== plural) {
    throw new UserError(
      `--plural ${plural}: ${options.kind} already has the plural "${sibling.plural}" in version ${sibling.version}; all versions of a kind share one`,
      { file: projectFileName },
    );
  }
  if (sibling && (sibling.api?.namespaced ?? true) !== namespaced) {
    throw new UserError(
      `${options.kind} is ${namespaced ? 'cluster-scoped' : 'namespaced'} in version ${sibling.version}; all versions of a kind share one scope`,
      { file: projectFileName },
    );
  }
  const taken = project.resources.find((r) => !isForeignKind(r) && r.group === options.group && r.plural === plural && r.kind !== options.kind);
  if (taken) {
    throw new UserError(
      `plural "${plural}" is already the plural of ${taken.kind} in group ${fullGroup(taken)}`,
      { file: projectFileName },
      'pass another --plural',
    );
  }
  const clash = nameConflict(
    defaultedNames({ kind: options.kind, plural }),
    project.resources.filter((r) => r.api && !isForeignKind(r) && r.group === options.group && r.kind !== options.kind).map((r) => defaultedNames(r)),
  );
  if (clash) {
    const flag = clash.reason === 'PluralConflict' ? `--plural ${plural}` : `--kind ${options.kind}`;
    throw new UserError(
      `${flag}: ${clash.message} (${clash.reason}): ${clash.name} is ${heldAs(clash)} in group ${fullGroup({ ...options, domain: project.domain })}, and the API server would never establish the CRD; nothing was written`,
      { file: projectFileName },
      `choose another ${flag.split(' ')[0]}`,
    );
  }
  return {
    group: options.group,
    version: options.version,
    kind: options.kind,
    domain: project.domain,
    plural,
    api: { crdVersion: 'v1', namespaced },
    controller: true,
    extra: {},
  };
}

/**
 * The built-in kind the flags name when they ask for a controller of one, as kubebuilder
 * reads them: `--resource=false` with a built-in group, version and kind, or any kind of
 * the group `core`, which is never a CRD. Without --resource=false, `--group batch --kind
 * CronJob` is a CRD of batch.<domain>, as in kubebuilder's CronJob tutorial.
 */
function builtinTarget(project: ProjectConfig, options: CreateApiOptions): BuiltinKind | undefined {
  const core = options.group === 'core';
  if (!core && options.resource !== false) return undefined;
  const builtin = findBuiltinKind(options.group, options.version, options.kind);
  if (!builtin) {
    if (!core) return undefined;
    const known = builtinKinds.filter((b) => b.group === 'core').map((b) => b.kind);
    throw new UserError(
      `--group core --version ${options.version} --kind ${options.kind}: not a built-in kind opgen has a handle for`,
      undefined,
      `core/v1 kinds: ${known.join(', ')}; a kind of your own takes another --group`,
    );
  }
  if (options.resource === true) {
    throw new UserError(
      `--resource: ${builtin.kind} is a built-in kind of ${builtin.apiGroup || 'core'}/${builtin.version}; opgen writes no CRD for it`,
      undefined,
      'pass --resource=false to scaffold a controller for it',
    );
  }
  for (const [flag, given] of [['--plural', options.plural], ['--namespaced', options.namespaced]] as const) {
    if (given !== undefined) throw new UserError(`${flag}: ${builtin.kind} is a built-in kind; the cluster decides its ${flag.slice(2)}`);
  }
  if (project.namespaced && !builtin.namespaced) {
    throw new UserError(
      `${builtin.kind} is cluster-scoped, but this operator only has rights in its own namespace`,
      { file: projectFileName },
      'the project was made with opgen init --namespaced',
    );
  }
  return builtin;
}

/** package.json with the npm package of `spec` (`name@range`) among its dependencies. */
async function withDependency(dir: string, spec: string): Promise<GeneratedFile> {
  const match = /^((?:@[\w.-]+\/)?[\w.-]+)@(.+)$/.exec(spec);
  if (!match) throw new UserError(`--external-api-module ${spec}: expected <npm package>@<version range>, e.g. @acme/cert-manager-api@^1.2.0`);
  const text = await readIfExists(join(dir, 'package.json'));
  if (text === undefined) throw new UserError('package.json not found: --external-api-module adds the package to its dependencies', { file: 'package.json' });
  let manifest: { dependencies?: Record<string, string> } & Record<string, unknown>;
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    throw new UserError('package.json is not valid JSON', { file: 'package.json' });
  }
  const dependencies = { ...(manifest.dependencies ?? {}), [match[1]!]: match[2]! };
  manifest.dependencies = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)));
  return { path: 'package.json', content: `${JSON.stringify(manifest, null, 2)}\n`, ownership: 'generated' };
}

/** PROJECT's record of a controller for a built-in kind, as kubebuilder writes it for a core type. */
function builtinResource(builtin: BuiltinKind): Resource {
  return {
    group: builtin.group,
    version: builtin.version,
    kind: builtin.kind,
    domain: builtin.domain,
    plural: builtin.plural,
    path: builtin.path,
    controller: true,
    extra: {},
  };
}

/** A kind scaffolded before is only scaffolded again with --force. */
function checkExisting(
  project: ProjectConfig,
  resource: Resource,
  existing: Resource | undefined,
  wanted: { withResource: boolean; withController: boolean; force: boolean },
): void {
  const gvk = `${resource.kind} (${fullGroup(resource)}/${resource.version})`;
  if (existing && !wanted.force) {
    if (wanted.withResource && existing.api) {
      throw new UserError(`kind ${gvk} already exists; nothing was written`, { file: projectFileName }, 'pass --force to re-scaffold it, or --no-resource to add only a controller');
    }
    if (wanted.withController && existing.controller) {
      throw new UserError(`the controller of ${gvk} already exists; nothing was written`, { file: projectFileName }, 'pass --force to re-scaffold it');
    }
  }
  const controlled = project.resources.find(
    (r) => r.controller && fullGroup(r) === fullGroup(resource) && r.kind === resource.kind && r.version !== resource.version,
  );
  if (wanted.withController && controlled && !wanted.force) {
    throw new UserError(
      `${resource.kind} already has a controller, for version ${controlled.version}; nothing was written`,
      { file: projectFileName },
      'pass --no-controller: one controller serves every version of a kind',
    );
  }
}

async function readCurrent(dir: string): Promise<CurrentProjectFiles> {
  return {
    main: await readIfExists(join(dir, projectWidePaths.main)),
    crdKustomization: await readIfExists(join(dir, projectWidePaths.crdKustomization)),
    rbacKustomization: await readIfExists(join(dir, projectWidePaths.rbacKustomization)),
    samplesKustomization: await readIfExists(join(dir, projectWidePaths.samplesKustomization)),
  };
}

