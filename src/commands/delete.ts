import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { UserError } from '../errors.js';
import { projectWidePaths } from '../generators/scaffold/api-updates.js';
import { chartDir } from '../generators/helm/index.js';
import { deleteApiPlan } from '../generators/scaffold/delete-api.js';
import { boilerplatePath } from '../generators/scaffold/init.js';
import { webhookManifests, webhookRemovalPaths } from '../generators/scaffold/webhook-removal.js';
import { webhooksOf } from '../project/webhooks.js';
import { kindNames } from '../generators/scaffold/names.js';
import { loadProject } from '../project/load.js';
import { refuseInHelmOperatorProject } from './helm-operator-guard.js';
import { fullGroup, projectFileName } from '../project/model.js';
import { applyChanges, formatPlan, planChanges, removeEmptyFolders, type PlannedChange } from '../writer/index.js';
import { readIfExists } from '../read-if-exists.js';
import { projectDirOption, type ProjectDirFlag } from './shared-options.js';

interface DeleteApiOptions {
  group: string;
  version: string;
  kind: string;
  force?: boolean;
  dryRun?: boolean;
}

const examples = `
Examples:
  # Remove the DemoVolume kind of storage.<domain>/v1: types, controller, sample, roles, CRD
  $ opgen delete api --group storage --version v1 --kind DemoVolume

  # Remove one version of a kind that has several: its CRD keeps the others
  $ opgen delete api --group storage --version v2beta1 --kind DemoVolume

  # A conversion webhook's spokes go before its hub (v1 converts v1beta1 here)
  $ opgen delete api --group storage --version v1beta1 --kind DemoVolume
  $ opgen delete api --group storage --version v1 --kind DemoVolume

  # Remove the files you changed too
  $ opgen delete api --group storage --version v1 --kind DemoVolume --force`;

/** `opgen delete`: the inverse of `opgen create`. */
export function deleteCommand(): Command {
  return new Command('delete')
    .description('remove an API (kind) that opgen create api added')
    .addHelpText('after', '\nExample:\n  $ opgen delete api --group storage --version v1 --kind DemoVolume')
    .addCommand(
      new Command('api')
        .description('remove what create api, create webhook and manifests generated for a kind version: types, controller and its registration, webhooks, sample, roles, CRD, kustomize entries, PROJECT record')
        .requiredOption('--group <group>', 'API group without the domain, as given to create api')
        .requiredOption('--version <version>', 'API version, e.g. v1')
        .requiredOption('--kind <kind>', 'kind, e.g. DemoVolume')
        .option('--force', 'also delete the files you changed since opgen wrote them')
        .addOption(projectDirOption())
        .option('--dry-run', 'print what would be deleted and changed; change nothing')
        .addHelpText('after', examples)
        .action(async ({ dir, ...options }: DeleteApiOptions & ProjectDirFlag) => {
          await runDeleteApi(dir, options);
        }),
    );
}

/** Removes a kind version from the project at `root`; see {@link deleteCommand}. */
export async function runDeleteApi(root: string, options: DeleteApiOptions): Promise<void> {
  const dir = resolve(root);
  const project = await loadProject(dir, 'opgen delete api');
  refuseInHelmOperatorProject(project, 'opgen delete api', 'remove the kind\'s entry from watches.yaml, its chart, CRD and sample by hand');
  const resource = project.resources.find((r) => r.group === options.group && r.version === options.version && r.kind === options.kind);
  if (!resource) {
    const known = project.resources.map((r) => `--group ${r.group} --version ${r.version} --kind ${r.kind}`);
    throw new UserError(
      `no kind ${options.kind} in group ${options.group}, version ${options.version}; nothing was deleted`,
      { file: projectFileName },
      known.length ? `PROJECT records: ${known.join('; ')}` : 'PROJECT records no kinds',
    );
  }
  const names = kindNames(project, resource);
  const paths = [
    names.typesFile,
    names.groupVersionFile,
    names.sampleFile,
    names.controllerFile,
    names.controllerTestFile,
    `config/crd/${names.crdEntry}`,
    ...['admin', 'editor', 'viewer'].map((suffix) => `config/rbac/${names.roleFileStem}_${suffix}_role.yaml`),
    ...Object.values(projectWidePaths),
    ...(resource.extra.external === true && resource.path?.startsWith('src/') ? [resource.path] : []),
  ];
  const boilerplate = (await readIfExists(join(dir, boilerplatePath))) ?? '';
  paths.push(...webhookRemovalPaths(project, resource, boilerplate));
  const disk = new Map(await Promise.all([...new Set(paths)].map(async (path) => [path, await readIfExists(join(dir, path))] as const)));
  const plan = deleteApiPlan(project, resource, disk, { boilerplate, force: options.force ?? false });

  // One plan for the writer, deletions included: a failure leaves the project as it was.
  const deletions = plan.deletes.map((path): PlannedChange => ({ path, action: 'DELETE', file: { path, content: '', ownership: 'generated' } }));
  const changes = [...(await planChanges(dir, plan.updates)), ...deletions].sort((a, b) => a.path.localeCompare(b.path));
  const dryRun = options.dryRun ?? false;
  if (!dryRun) {
    await applyChanges(dir, changes);
    await removeEmptyFolders(dir, plan.deletes);
  }
  process.stdout.write(`${formatPlan(changes, { dryRun })}\n`);
  for (const path of plan.kept) process.stdout.write(`  kept ${path}: you changed it since opgen wrote it; delete it yourself, or pass --force\n`);
  for (const note of plan.notes) process.stdout.write(`${note}\n`);
  if (plan.kept.includes(names.typesFile)) {
    process.stdout.write(`  (while ${names.typesFile} is there, opgen manifests still writes a CRD for ${resource.kind})\n`);
  }
  const webhooks = webhooksOf(resource);
  const admission = (webhooks?.defaulting || webhooks?.validation) && !plan.deletes.includes(webhookManifests);
  const stale = admission ? 'config/rbac/role.yaml and config/webhook/manifests.yaml' : 'config/rbac/role.yaml';
  // The chart is built from config/ as `npm run manifests` leaves it, so it follows after.
  const chart = existsSync(join(dir, chartDir, 'Chart.yaml')) ? `, then opgen edit --plugins helm, to take it out of ${chartDir}` : '';
  if (!dryRun) process.stdout.write(`\nNext: npm run manifests, to bring ${stale} up to date without ${resource.kind} (${fullGroup(resource) || 'core'})${chart}.\n`);
}

