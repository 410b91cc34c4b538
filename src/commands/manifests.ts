import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { buildCrds } from '../crd/build.js';
import { clientDependencyErrors } from '../crd/client-dependency.js';
import { readApiFiles } from '../crd/discover.js';
import { UserError, UserErrors } from '../errors.js';
import { generateCrds } from '../generators/crd.js';
import { generateRbac } from '../generators/rbac.js';
import { generateSamples } from '../generators/samples.js';
import { generateWebhooks } from '../generators/webhook.js';
import { collectPackageMarkers } from '../markers/collect.js';
import { loadProject } from '../project/load.js';
import { paint } from '../ui.js';
import { cliVersion } from '../version.js';
import { applyChanges, formatPlan, planChanges } from '../writer/index.js';

interface ManifestsOptions {
  check?: boolean;
  maxDescLen?: number;
  dir: string;
}

/** `opgen manifests`: CRDs, RBAC, webhook configurations and samples from the API types and markers. */
export function manifestsCommand(): Command {
  return new Command('manifests')
    .description('generate CRDs, RBAC roles, webhook configurations and samples from src/api and the markers under src/')
    .option('--check', 'write nothing; exit 1 naming each file that is out of date (for CI)')
    .option('--max-desc-len <n>', 'shorten schema descriptions to at most N characters (0 drops them)', nonNegativeInteger)
    .option('--dir <path>', 'the project root', '.')
    .addHelpText('after', '\nExamples:\n  $ opgen manifests\n  $ opgen manifests --check\n  $ opgen manifests --max-desc-len 0')
    .action(async (options: ManifestsOptions) => {
      await runManifests(options);
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
  const apiFiles = await readApiFiles(root);
  const { crds, errors } = buildCrds(root, apiFiles, {
    project,
    generatorVersion: cliVersion,
    maxDescriptionLength: options.maxDescLen,
  });
  const packageMarkers = collectPackageMarkers(sources);
  const allErrors = [...(await clientDependencyErrors(root, apiFiles)), ...errors, ...packageMarkers.errors];
  if (allErrors.length) throw new UserErrors(allErrors);

  const samples = crds.flatMap((crd) =>
    crd.crd.spec.versions.filter((v) => v.served).map((v) => ({
      group: crd.group,
      version: v.name,
      kind: crd.kind,
      plural: crd.plural,
      schema: v.schema.openAPIV3Schema,
    })),
  );
  const files = [
    ...generateCrds(crds),
    ...generateRbac(packageMarkers.rbac, { namespaced: project.namespaced }),
    ...generateWebhooks(packageMarkers.webhooks),
    ...generateSamples(samples, await existingSamples(root), { projectName: project.projectName, domain: project.domain }),
  ];
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

/** Every TypeScript file under src/ (project-relative path → text), for the RBAC and webhook markers. */
async function readSources(root: string): Promise<Map<string, string>> {
  let entries: string[];
  try {
    entries = await readdir(join(root, 'src'), { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const wanted = entries
    .map((e) => e.split('\\').join('/'))
    .filter((e) => /\.m?ts$/.test(e) && !/\.(d|test|spec)\.m?ts$/.test(e) && !e.split('/').includes('node_modules'))
    .sort();
  const texts = await Promise.all(wanted.map((e) => readFile(join(root, 'src', e), 'utf8')));
  return new Map(wanted.map((e, i) => [`src/${e}`, texts[i]!]));
}

async function existingSamples(root: string): Promise<Set<string>> {
  try {
    const names = await readdir(join(root, 'config/samples'));
    return new Set(names.map((n) => `config/samples/${n}`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw error;
  }
}
