import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { clientDependencyErrors } from '../crd/client-dependency.js';
import { UserError, UserErrors } from '../errors.js';
import { apiTexts, generateManifests } from '../generators/manifests.js';
import { loadProject } from '../project/load.js';
import { existingSamples, readSources } from '../project/sources.js';
import { paint } from '../ui.js';
import { watchManifests } from '../watch/manifests.js';
import { applyChanges, formatPlan, planChanges } from '../writer/index.js';

interface ManifestsOptions {
  check?: boolean;
  watch?: boolean;
  maxDescLen?: number;
  dir: string;
}

/** `opgen manifests`: CRDs, RBAC, webhook configurations and samples from the API types and markers. */
export function manifestsCommand(): Command {
  return new Command('manifests')
    .description('generate CRDs, RBAC roles, webhook configurations and samples from src/api and the markers under src/')
    .option('--check', 'write nothing; exit 1 naming each file that is out of date (for CI)')
    .option('--max-desc-len <n>', 'shorten schema descriptions to at most N characters (0 drops them)', nonNegativeInteger)
    .option('--watch', 'keep running and regenerate on every save under src/')
    .option('--dir <path>', 'the project root', '.')
    .addHelpText('after', '\nExamples:\n  $ opgen manifests\n  $ opgen manifests --check\n  $ opgen manifests --max-desc-len 0\n  $ opgen manifests --watch')
    .action(async (options: ManifestsOptions) => {
      if (options.watch && options.check) throw new UserError('--watch and --check cannot be used together', undefined, 'use --check in CI, --watch while editing');
      if (options.watch) await watchManifests(options);
      else await runManifests(options);
    });
}

function nonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of characters, 0 or more');
  return Number(value);
}

/** Generates everything and writes it, or with `check` reports what is stale. */
export async function runManifests(options: ManifestsOptions): Promise<void> {
  const root = resolve(options.dir);
  const project = await loadProject(root, 'opgen manifests');
  const sources = await readSources(root);
  const inputs = { project, sources, existingSamples: await existingSamples(root), dependencyErrors: await clientDependencyErrors(root, apiTexts(root, sources)) };
  const files = generateManifests(root, inputs, { maxDescriptionLength: options.maxDescLen });
  const changes = await planChanges(root, files);
  if (options.check) {
    const stale = changes.filter((c) => c.action === 'CREATE' || c.action === 'UPDATE');
    if (stale.length) throw new UserErrors(stale.map((c) => new UserError(`${c.path} is stale; run opgen manifests`)));
    process.stdout.write('manifests are up to date\n');
    return;
  }
  await applyChanges(root, changes);
  const report = formatPlan(changes);
  process.stdout.write(report ? `${report}\n` : `${paint('dim', 'manifests are up to date')}\n`);
}
