import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { UserError } from '../errors.js';
import { findBuiltinKind, builtinKinds, isBuiltinGroup } from '../generators/scaffold/builtin-kinds.js';
import { boilerplatePath } from '../generators/scaffold/init.js';
import { protectUserEdits } from '../generators/scaffold/user-edits.js';
import { networkPolicyKustomization } from '../generators/scaffold/config/webhook-network-policy.js';
import { webhookProjectPaths, webhookProjectUpdates } from '../generators/scaffold/webhook-updates.js';
import { webhookFiles, webhookResources } from '../generators/scaffold/webhook.js';
import { validateGroup, validateKind, validateVersion } from '../names/validate.js';
import { loadProject } from '../project/load.js';
import { fullGroup, projectFileName, sameGvk, type ProjectConfig, type Resource } from '../project/model.js';
import { certificateMode, webhooksOf, withCertificateMode, withWebhooks, type CertificateMode, type ResourceWebhooks } from '../project/webhooks.js';
import { applyChanges, formatPlan, planChanges, type GeneratedFile } from '../writer/index.js';
import { externalTarget } from './external-target.js';
import { readIfExists } from '../read-if-exists.js';
import { projectDirOption, type ProjectDirFlag } from './shared-options.js';

export interface CreateWebhookOptions {
  group: string;
  version: string;
  kind: string;
  defaulting?: boolean;
  programmaticValidation?: boolean;
  conversion?: boolean;
  spoke?: string[];
  defaultingPath?: string;
  validationPath?: string;
  externalApiPath?: string;
  externalApiDomain?: string;
  certificates?: CertificateMode;
  force?: boolean;
  dryRun?: boolean;
}

const webhookExamples = `
Examples:
  # Defaulting and validating webhooks of DemoVolume v1
  $ opgen create webhook --group storage --version v1 --kind DemoVolume --defaulting --programmatic-validation

  # v2 is the hub: v1 and v1beta1 convert to and from it
  $ opgen create webhook --group storage --version v2 --kind DemoVolume --conversion --spoke v1,v1beta1

  # A defaulting webhook for Pods, served on a path of your choice
  $ opgen create webhook --group core --version v1 --kind Pod --defaulting --defaulting-path /mutate-pods

  # Validation of cert-manager's Certificate, a kind of another project
  $ opgen create webhook --group cert-manager --version v1 --kind Certificate --programmatic-validation --external-api-domain io --external-api-path src/external/certificate.ts`;

/** `opgen create webhook`: kubebuilder's flags and rules. */
export function createWebhookCommand(): Command {
  return new Command('webhook')
    .description('scaffold the defaulting, validating or conversion webhook of a kind: handler and test, PROJECT record, config/ wiring and its registration in src/main.ts')
    .requiredOption('--group <group>', 'API group without the domain, e.g. storage (core, apps, batch… for a built-in kind)')
    .requiredOption('--version <version>', 'API version, e.g. v1')
    .requiredOption('--kind <kind>', 'kind in PascalCase, e.g. DemoVolume')
    .option('--defaulting', 'a defaulting (mutating) webhook')
    .option('--programmatic-validation', 'a validating webhook')
    .option('--conversion', 'a conversion webhook; this version is the hub, --spoke names the others')
    .option('--spoke <versions>', 'with --conversion: the versions converted to and from the hub, comma-separated, e.g. v1,v1beta1', (value: string, previous: string[] | undefined) => [
      ...(previous ?? []),
      ...value.split(',').map((v) => v.trim()).filter(Boolean),
    ])
    .option('--defaulting-path <path>', 'with --defaulting: serve it on this path instead of /mutate-<group>-<version>-<kind>')
    .option('--validation-path <path>', 'with --programmatic-validation: serve it on this path instead of /validate-<group>-<version>-<kind>')
    .option('--external-api-path <module>', 'a kind of another project: the module exporting its handle, as for create api')
    .option('--external-api-domain <domain>', 'with --external-api-path: the domain the group completes (default: the project domain)')
    .addOption(
      new Option('--certificates <mode>', "the webhook server's certificate: built in (a CA and certificate the manager keeps in a Secret; no cert-manager) or cert-manager's").choices(['built-in', 'cert-manager']),
    )
    .option('--force', 'scaffold a webhook type the kind already has again: rewrites the files you have not changed')
    .addOption(projectDirOption())
    .option('--dry-run', 'print what would be written; write nothing')
    .addHelpText('after', webhookExamples)
    .action(async ({ dir, ...options }: CreateWebhookOptions & ProjectDirFlag) => {
      await runCreateWebhook(dir, options);
    });
}

/**
 * The `create webhook` options that scaffold what PROJECT records for `resource` (undefined
 * when it has no webhooks): what a tool replaying PROJECT (`opgen upgrade`) passes to
 * {@link runCreateWebhook}, with `force` to rewrite files still as opgen wrote them.
 */
export function createWebhookOptions(project: ProjectConfig, resource: Resource): CreateWebhookOptions | undefined {
  const webhooks = webhooksOf(resource);
  if (!webhooks || !(webhooks.defaulting || webhooks.validation || webhooks.conversion)) return undefined;
  const external = resource.extra.external === true && resource.path !== undefined;
  return {
    group: resource.group,
    version: resource.version,
    kind: resource.kind,
    ...(webhooks.defaulting ? { defaulting: true } : {}),
    ...(webhooks.validation ? { programmaticValidation: true } : {}),
    ...(webhooks.conversion ? { conversion: true, spoke: webhooks.spoke } : {}),
    ...(webhooks.defaultingPath ? { defaultingPath: webhooks.defaultingPath } : {}),
    ...(webhooks.validationPath ? { validationPath: webhooks.validationPath } : {}),
    ...(external ? { externalApiPath: resource.path, externalApiDomain: resource.domain } : {}),
    certificates: certificateMode(project),
  };
}

/** Scaffolds webhooks of a kind into the project at `root`; see {@link createWebhookCommand}. */
export async function runCreateWebhook(root: string, options: CreateWebhookOptions): Promise<void> {
  const dir = resolve(root);
  const project = await loadProject(dir, 'opgen create webhook');
  const wanted = requestedWebhooks(options);
  const target = resolveTarget(project, options);
  const index = project.resources.findIndex((r) => sameGvk(r, target));
  const existing = project.resources[index];
  const before = existing ? webhooksOf(existing) : undefined;
  checkConversion(project, existing ?? target, wanted);
  const merged = mergeWebhooks(target, before, wanted, options.force ?? false);

  const recorded = withWebhooks(existing ?? target, merged);
  const mode = chosenMode(project, options.certificates);
  const updated: ProjectConfig = {
    ...withCertificateMode(project, mode),
    resources: index >= 0 ? project.resources.map((r, i) => (i === index ? recorded : r)) : [...project.resources, recorded],
  };
  const boilerplate = (await readIfExists(join(dir, boilerplatePath))) ?? '';
  const files = await projectWebhookFiles(dir, updated, recorded, existing, boilerplate, options.force ?? false, wanted);

  const changes = await planChanges(dir, files.files);
  const conflicts = changes.filter((c) => c.action === 'CONFLICT').map((c) => c.path);
  if (conflicts.length > 0) {
    const [verb, pronoun] = conflicts.length === 1 ? ['exists', 'it'] : ['exist', 'them'];
    throw new UserError(
      `${conflicts.join(', ')} already ${verb} and differs from what opgen scaffolded; nothing was written`,
      undefined,
      `add the new webhook to ${pronoun} by hand, or pass --force to keep ${pronoun} and write the rest`,
    );
  }
  if (!options.dryRun) await applyChanges(dir, changes);
  process.stdout.write(`${formatPlan(changes, { dryRun: options.dryRun ?? false })}\n`);
  for (const path of files.kept) process.stdout.write(`  kept ${path}: it differs from what opgen scaffolded; delete it and re-run with --force to regenerate it\n`);
  if (!options.dryRun) process.stdout.write('\nNext: write your rules in the webhook files, then run npm run manifests and npm test.\n');
}

/**
 * Every file `create webhook` writes for `resource` in `project` (PROJECT already holding
 * its webhooks): its handler files, protecting the user's edits, and the project-wide files
 * of {@link webhookProjectUpdates}, from the files as they are on disk now.
 */
async function projectWebhookFiles(
  dir: string,
  project: ProjectConfig,
  resource: Resource,
  previous: Resource | undefined,
  boilerplate: string,
  force: boolean,
  wanted: ResourceWebhooks,
): Promise<{ files: GeneratedFile[]; kept: string[] }> {
  // Only the files of the types asked for: --defaulting --force leaves the conversion alone.
  const asked = new Set(webhookFiles({ project, resource: withWebhooks(resource, wanted), boilerplate }).map((f) => f.path));
  const scaffolded = webhookFiles({ project, resource, boilerplate }).filter((f) => asked.has(f.path));
  const onDisk = new Map<string, string | undefined>();
  for (const file of scaffolded) onDisk.set(file.path, await readIfExists(join(dir, file.path)));
  // A file still as opgen wrote it for the webhooks recorded before may be rewritten with the new ones.
  const earlier = new Map((previous ? webhookFiles({ project, resource: previous, boilerplate }) : []).map((f) => [f.path, f.content]));
  const unchanged = scaffolded.map((file) => (onDisk.get(file.path) !== undefined && earlier.get(file.path) === onDisk.get(file.path) ? { ...file, ownership: 'generated' as const } : file));
  const { files, kept } = protectUserEdits(unchanged, onDisk, earlier, force);

  const current = new Map<string, string | undefined>();
  for (const path of [...webhookProjectPaths, networkPolicyKustomization]) current.set(path, await readIfExists(join(dir, path)));
  return { files: [...files, ...webhookProjectUpdates(project, boilerplate, (path) => current.get(path))], kept };
}


/** The webhook types the flags ask for, checked for kubebuilder's rules on their combinations. */
function requestedWebhooks(options: CreateWebhookOptions): ResourceWebhooks {
  const wanted: ResourceWebhooks = {
    defaulting: options.defaulting ?? false,
    validation: options.programmaticValidation ?? false,
    conversion: options.conversion ?? false,
    spoke: [...new Set(options.spoke ?? [])],
  };
  if (!wanted.defaulting && !wanted.validation && !wanted.conversion) {
    throw new UserError('no webhook type: pass --defaulting, --programmatic-validation or --conversion (or several)');
  }
  if (wanted.spoke.length && !wanted.conversion) throw new UserError('--spoke needs --conversion');
  if (wanted.conversion && wanted.spoke.length === 0) {
    throw new UserError('--conversion needs --spoke: the versions converted to and from this one, the hub', undefined, 'e.g. --spoke v1,v1beta1');
  }
  for (const version of wanted.spoke) validateVersion(version);
  const path = (flag: string, value: string | undefined, needs: boolean, needed: string) => {
    if (value === undefined) return undefined;
    if (!needs) throw new UserError(`${flag} needs ${needed}`);
    if (!/^\/[\w./-]*$/.test(value)) throw new UserError(`${flag} ${value}: expected a URL path starting with /, e.g. /mutate-widgets`);
    return value;
  };
  const defaultingPath = path('--defaulting-path', options.defaultingPath, wanted.defaulting, '--defaulting');
  const validationPath = path('--validation-path', options.validationPath, wanted.validation, '--programmatic-validation');
  if (defaultingPath) wanted.defaultingPath = defaultingPath;
  if (validationPath) wanted.validationPath = validationPath;
  if (defaultingPath && defaultingPath === validationPath) throw new UserError(`--defaulting-path and --validation-path are both ${defaultingPath}; each webhook needs its own path`);
  return wanted;
}

/**
 * The kind the flags name: a kind of this project with API types, a built-in kind
 * (`--group core --version v1 --kind Pod`, apps/v1 Deployment, …), or an external one
 * (`--external-api-path`), as kubebuilder allows.
 */
function resolveTarget(project: ProjectConfig, options: CreateWebhookOptions): Resource {
  if (options.externalApiPath !== undefined) {
    // Defined: --external-api-path is given.
    const external = externalTarget(project, options)!;
    const known = project.resources.find((r) => sameGvk(r, external));
    return known ?? { ...external, controller: false };
  }
  if (options.externalApiDomain !== undefined) throw new UserError('--external-api-domain needs --external-api-path, the module of the external kind\'s handle');
  // A kind of the project first: kubebuilder's CronJob tutorial has its own batch.<domain> CronJob.
  const own = project.resources.find((r) => r.api && sameGvk(r, { group: options.group, version: options.version, kind: options.kind, domain: project.domain }));
  if (own) return own;
  const builtin = findBuiltinKind(options.group, options.version, options.kind);
  if (builtin) {
    const resource: Resource = { group: builtin.group, version: builtin.version, kind: builtin.kind, domain: builtin.domain, plural: builtin.plural, path: builtin.path, controller: false, extra: {} };
    return project.resources.find((r) => sameGvk(r, resource)) ?? resource;
  }
  if (options.group === 'core' || (isBuiltinGroup(options.group) && !project.resources.some((r) => r.group === options.group))) {
    const known = builtinKinds.filter((b) => b.group === options.group || b.apiGroup === options.group).map((b) => `${b.version} ${b.kind}`);
    throw new UserError(
      `--group ${options.group} --version ${options.version} --kind ${options.kind}: not a built-in kind opgen has a handle for`,
      undefined,
      `${options.group} kinds: ${known.join(', ')}`,
    );
  }
  validateGroup(options.group, project.domain);
  validateVersion(options.version);
  validateKind(options.kind);
  const versions = project.resources.filter((r) => r.api && r.group === options.group && r.kind === options.kind).map((r) => r.version);
  throw new UserError(
    `kind ${options.kind} (${fullGroup({ group: options.group, domain: project.domain })}/${options.version}) does not exist in this project`,
    { file: projectFileName },
    versions.length ? `${options.kind} has the versions ${versions.join(', ')}` : `create it first: opgen create api --group ${options.group} --version ${options.version} --kind ${options.kind}`,
  );
}

/**
 * The certificate mode: the one PROJECT records once the project has webhooks (all of them
 * switch together, with `opgen edit --webhook-certificates`), else `--certificates` or PROJECT's.
 */
function chosenMode(project: ProjectConfig, asked: CertificateMode | undefined): CertificateMode {
  const current = certificateMode(project);
  if (webhookResources(project).length === 0) return asked ?? current;
  if (asked !== undefined && asked !== current) {
    throw new UserError(
      `--certificates ${asked}: the project's webhooks already use ${current} certificates`,
      { file: projectFileName },
      `switch them all with opgen edit --webhook-certificates ${asked}, then create the webhook without --certificates`,
    );
  }
  return current;
}

/** A conversion webhook: the kind's own CRD, spokes that are other versions of it, one hub per kind. */
function checkConversion(project: ProjectConfig, resource: Resource, wanted: ResourceWebhooks): void {
  if (!wanted.conversion) return;
  const gvk = `${resource.kind} (${fullGroup(resource)}/${resource.version})`;
  if (!resource.api) throw new UserError(`--conversion: ${gvk} has no CRD in this project; only the versions of a kind it defines can be converted`);
  const versions = project.resources.filter((r) => r.api && fullGroup(r) === fullGroup(resource) && r.kind === resource.kind).map((r) => r.version);
  for (const spoke of wanted.spoke) {
    if (spoke === resource.version) throw new UserError(`--spoke ${spoke}: ${resource.version} is the hub itself`, undefined, 'the spokes are the other versions of the kind');
    if (!versions.includes(spoke)) {
      throw new UserError(
        `--spoke ${spoke}: not a version of ${resource.kind} (it has ${versions.join(', ')})`,
        { file: projectFileName },
        `create it first: opgen create api --group ${resource.group} --version ${spoke} --kind ${resource.kind} --no-controller`,
      );
    }
  }
  const otherHub = project.resources.find(
    (r) => fullGroup(r) === fullGroup(resource) && r.kind === resource.kind && r.version !== resource.version && webhooksOf(r)?.conversion,
  );
  if (otherHub) {
    throw new UserError(`--conversion: ${resource.kind} already has its hub, version ${otherHub.version}; a kind has one hub`, { file: projectFileName }, `add spokes there: opgen create webhook --version ${otherHub.version} --conversion --spoke … --force`);
  }
}

/** The webhooks recorded before plus those asked for; asking again for one already there needs --force. */
function mergeWebhooks(resource: Resource, before: ResourceWebhooks | undefined, wanted: ResourceWebhooks, force: boolean): ResourceWebhooks {
  const gvk = `${resource.kind} (${fullGroup(resource)}/${resource.version})`;
  if (before && !force) {
    const again = [
      ...(wanted.defaulting && before.defaulting ? ['defaulting'] : []),
      ...(wanted.validation && before.validation ? ['validating'] : []),
      ...(wanted.conversion && before.conversion ? ['conversion'] : []),
    ];
    if (again.length) {
      throw new UserError(`${gvk} already has a ${again.join(' and a ')} webhook; nothing was written`, { file: projectFileName }, 'pass --force to scaffold it again');
    }
  }
  const merged: ResourceWebhooks = {
    defaulting: wanted.defaulting || Boolean(before?.defaulting),
    validation: wanted.validation || Boolean(before?.validation),
    conversion: wanted.conversion || Boolean(before?.conversion),
    spoke: wanted.conversion ? wanted.spoke : (before?.spoke ?? []),
  };
  const defaultingPath = wanted.defaulting ? wanted.defaultingPath : before?.defaultingPath;
  const validationPath = wanted.validation ? wanted.validationPath : before?.validationPath;
  if (defaultingPath) merged.defaultingPath = defaultingPath;
  if (validationPath) merged.validationPath = validationPath;
  return merged;
}
