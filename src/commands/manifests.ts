import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { clientDependencyErrors } from '../crd/client-dependency.js';
import { formatUserWarning, UserError, UserErrors } from '../errors.js';
import { apiTexts, generateManifests } from '../generators/manifests.js';
import { checkSamples } from '../generators/samples/check.js';
import { loadProject } from '../project/load.js';
import { operatorNamespace } from '../project/operator-namespace.js';
import { refuseInHelmOperatorProject } from './helm-operator-guard.js';
import { projectFileName } from '../project/model.js';
import { serializeProject } from '../project/serialize.js';
import { readSources, samplesNotToWrite } from '../project/sources.js';
import { paint } from '../ui.js';
import { applyChanges, formatPlan, planChanges } from '../writer/index.js';
import { resolveMaxDescLen } from '../project/manifests-settings.js';
import { readSamples } from './read-samples.js';
import { projectDirOption } from './shared-options.js';

interface ManifestsOptions {
  check?: boolean;
  base?: string;
  allowBreaking?: string;
  allowAlphaChanges?: boolean;
  dryRun?: boolean;
  watch?: boolean;
  maxDescLen?: number;
  dir: string;
}

/** `opgen manifests`: CRDs, RBAC, webhook configurations and samples from the API types and markers. */
export function manifestsCommand(): Command {
  return new Command('manifests')
    .description('generate CRDs, RBAC roles, webhook configurations and samples from src/api and the markers under src/')
    .option('--check', 'write nothing; print a diff of each file that is out of date, and refuse changes that break the released API; exit 1 on either (for CI)')
    .option('--base <ref|dir>', 'with --check: the released API to compare with, as a git ref (its config/crd/bases) or a directory of CRDs (default: the last git tag)')
    .option('--allow-breaking <rules>', 'with --check: accept these breaking-change rules on purpose, comma-separated (e.g. field-removed,enum-restricted)')
    .option('--allow-alpha-changes', 'with --check: accept breaking changes to versions the release served as alpha')
    .option('--dry-run', 'print what would be written; write nothing')
    .option('--max-desc-len <n>', 'shorten schema descriptions to at most N characters (0 drops them); remembered in PROJECT', nonNegativeInteger)
    .option('--watch', 'keep running and regenerate on every save under src/')
    .addOption(projectDirOption())
    .addHelpText('after', '\nExamples:\n  $ opgen manifests\n  $ opgen manifests --check\n  $ opgen manifests --dry-run\n  $ opgen manifests --max-desc-len 0\n  $ opgen manifests --watch')
    .action(async (options: ManifestsOptions) => {
      const compatFlag = options.base !== undefined ? '--base' : options.allowBreaking !== undefined ? '--allow-breaking' : options.allowAlphaChanges ? '--allow-alpha-changes' : undefined;
      if (compatFlag && !options.check) throw new UserError(`${compatFlag} works only with --check`, undefined, `opgen manifests --check ${compatFlag}…`);
      if (options.watch && (options.check || options.dryRun)) throw new UserError(`--watch and ${options.check ? '--check' : '--dry-run'} cannot be used together`, undefined, 'use --check in CI, --watch while editing');
      // --watch and --check's diff are imported only when asked for: a plain run need not load them.
      if (options.watch) await (await import('../watch/manifests.js')).watchManifests(options);
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
  const loaded = await loadProject(root, 'opgen manifests');
  refuseInHelmOperatorProject(loaded, 'opgen manifests', 'opgen create api --helm-chart <chart> --force rewrites a kind\'s CRD and RBAC from its chart');
  const { value: maxDescriptionLength, project } = resolveMaxDescLen(loaded, options.maxDescLen);
  const sources = await readSources(root);
  const inputs = {
    project,
    sources,
    existingSamples: await samplesNotToWrite(root, project),
    operatorNamespace: await operatorNamespace(root, project),
    dependencyErrors: await clientDependencyErrors(root, apiTexts(root, sources)),
  };
  const { files, samples, crds, locations } = generateManifests(root, inputs, { maxDescriptionLength });
  // A sample the types outgrew does not stop the CRDs from following the types; CI (--check) fails on it.
  const sampleProblems = checkSamples(samples, await readSamples(root, samples, project.domain), project);
  if (!options.check) for (const problem of sampleProblems) process.stderr.write(`${formatUserWarning(problem)}\n`);
  if (project !== loaded) files.push({ path: projectFileName, content: serializeProject(project), ownership: 'generated' });
  const changes = await planChanges(root, files);
  if (options.check) {
    const stale = changes.filter((c) => c.action === 'CREATE' || c.action === 'UPDATE');
    const { staleDiff } = await import('./stale-diff.js');
    process.stdout.write(await staleDiff(root, stale));
    const { compareWithRelease } = await import('./manifests-compat.js');
    const breaking = compareWithRelease(root, crds, locations, files, options);
    const problems = [...stale.map((c) => new UserError(`${c.path} is stale; run opgen manifests`)), ...sampleProblems, ...breaking];
    if (problems.length) throw new UserErrors(problems);
    process.stdout.write('manifests are up to date\n');
    return;
  }
  if (options.dryRun) {
    process.stdout.write(`${formatPlan(changes, { dryRun: true })}\n`);
    return;
  }
  await applyChanges(root, changes);
  const report = formatPlan(changes);
  process.stdout.write(report ? `${report}\n` : `${paint('dim', 'manifests are up to date')}\n`);
}
