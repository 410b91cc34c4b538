import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { formatUserWarning } from '../errors.js';
import { bundleFiles, type BundleOptions } from '../bundle/generate.js';
import { readBundleInputs } from '../bundle/inputs.js';
import { staleManifests } from '../bundle/stale.js';
import { applyChanges, formatPlan, planChanges } from '../writer/index.js';
import { projectDirOption } from './shared-options.js';

interface BundleCommandOptions extends Omit<BundleOptions, 'packageName'> {
  package?: string;
  image?: string;
  dir: string;
  dryRun?: boolean;
}

/** `opgen bundle`: operator-sdk's `generate kustomize manifests` + `generate bundle` in one step. */
export function bundleCommand(): Command {
  const command = new Command('bundle')
    .description('write an OLM bundle (bundle/manifests with the ClusterServiceVersion, bundle/metadata, bundle.Dockerfile) from config/')
    .option('--version <semver>', "the operator's version in the CSV (default: package.json's version)")
    .option('--channels <names>', 'comma-separated channels the bundle is published in', 'alpha')
    .option('--default-channel <name>', 'the channel subscriptions follow unless they name one')
    .option('--package <name>', "the OLM package name (default: the project's name)")
    .option('--image <image>', "the manager's image in the CSV's deployment (default: config/manager's)")
    .addOption(projectDirOption())
    .option('--dry-run', 'print what would be written; write nothing')
    .addHelpText(
      'after',
      `
The CSV is config/manifests/bases/<project>.clusterserviceversion.yaml (written on the first run,
then yours: its description, icon, maintainers, install modes and the owned kinds' display names,
descriptions and descriptors survive every run) with the install strategy, owned CRDs, webhook
definitions and alm-examples generated from config/default and config/samples. Needs kubectl (kustomize).

Examples:
  $ opgen bundle --version 0.2.0 --channels stable,alpha --default-channel stable
  $ opgen bundle --image ghcr.io/me/operator:0.2.0 && opgen bundle validate`,
    )
    .action(async (options: BundleCommandOptions) => {
      const root = resolve(options.dir);
      const inputs = await readBundleInputs(root, options.image);
      const { files, warnings } = await bundleFiles(root, inputs, { ...options, packageName: options.package });
      for (const warning of warnings) process.stderr.write(`${formatUserWarning(warning)}\n`);
      const changes = await planChanges(root, files);
      const stale = await staleManifests(root, files);
      const deletions = stale.map((path) => `DELETE ${path}`);
      if (options.dryRun) {
        process.stdout.write(`${[formatPlan(changes), ...deletions, '(dry run: nothing was written)'].filter(Boolean).join('\n')}\n`);
        return;
      }
      await applyChanges(root, changes);
      await Promise.all(stale.map((path) => rm(join(root, path))));
      const report = [formatPlan(changes), ...deletions].filter(Boolean).join('\n');
      process.stdout.write(report ? `${report}\n` : 'bundle is up to date\n');
    });
  command.addCommand(validateCommand());
  return command;
}

function validateCommand(): Command {
  return new Command('validate')
    .description("check a bundle as operator-sdk's default validators do; one located line per problem")
    .argument('[dir]', 'the bundle directory', 'bundle')
    .addHelpText(
      'after',
      `
Examples:
  # Check the bundle opgen bundle wrote
  $ opgen bundle validate

  # Check a bundle somewhere else
  $ opgen bundle validate ../catalog/my-operator/0.2.0`,
    )
    .action(async (dir: string) => {
      const { validateBundle } = await import('../bundle/validate/index.js');
      await validateBundle(dir);
    });
}
