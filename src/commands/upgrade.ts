import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { UserError, UserErrors } from '../errors.js';
import { loadProject } from '../project/load.js';
import { projectFileName, type ProjectConfig } from '../project/model.js';
import { serializeProject } from '../project/serialize.js';
import { changelogBetween } from '../upgrade/changelog.js';
import { uncommittedChanges } from '../upgrade/git-tree.js';
import { withOpgenRanges } from '../upgrade/package-ranges.js';
import { planUpgrade, type UpgradeStep } from '../upgrade/plan.js';
import { scaffold, upgradeByHand } from '../upgrade/replay.js';
import { refuseInHelmOperatorProject } from './helm-operator-guard.js';
import { formatUpgrade } from '../upgrade/report.js';
import { currentScaffold, firstRelease, scaffoldOf, type ScaffoldVersion } from '../upgrade/scaffold-version.js';
import { readIfExists } from '../read-if-exists.js';
import { readProjectSettings } from '../upgrade/settings.js';
import { applyChanges, formatPlan, planChanges, type PlannedChange } from '../writer/index.js';
import { projectDirOption, type ProjectDirFlag } from './shared-options.js';

export interface UpgradeOptions {
  to?: string;
  dryRun?: boolean;
  force?: boolean;
}

const examples = `
Examples:
  # See what an upgrade would change, writing nothing
  $ opgen upgrade --dry-run

  # Upgrade, then review it like any change
  $ opgen upgrade && git diff

  # Upgrade to another release than this opgen's
  $ npx opgen@0.2.0 upgrade`;

/** `opgen upgrade`: brings a project to the running opgen's scaffold. */
export function upgradeCommand(): Command {
  return new Command('upgrade')
    .description("bring the project to this opgen's scaffold: your edits kept, opgen's changes merged in, generated files regenerated")
    .option('--to <version>', 'the opgen version to upgrade to: only this one\'s (run another with npx opgen@<version> upgrade)')
    .addOption(projectDirOption())
    .option('--dry-run', 'print what would change; write nothing')
    .option('--force', 'upgrade even when the git tree has uncommitted changes')
    .addHelpText('after', examples)
    .action(async ({ dir, ...options }: UpgradeOptions & ProjectDirFlag) => {
      await runUpgrade(dir, options);
    });
}

/**
 * Upgrades the project at `root` to `running`'s scaffold (the running opgen's; tests pass
 * another). The scaffold's files are written all or nothing; then, unless a file has
 * conflicts, `opgen manifests` (and the Helm chart, when PROJECT has the plugin) regenerate
 * what opgen generates. With conflicts nothing runs on the marked files and the exit code is 1.
 */
export async function runUpgrade(root: string, options: UpgradeOptions, running: ScaffoldVersion = currentScaffold): Promise<void> {
  const dir = resolve(root);
  if (options.to !== undefined && options.to.replace(/^v/, '') !== running.version) {
    throw new UserError(
      `--to ${options.to}: this opgen is ${running.version} and upgrades only to its own scaffold; nothing was written`,
      undefined,
      `run that release's opgen instead: npx opgen@${options.to.replace(/^v/, '')} upgrade`,
    );
  }
  const project = await loadProject(dir, 'opgen upgrade');
  refuseInHelmOperatorProject(project, 'opgen upgrade', upgradeByHand, 'is not re-scaffolded by this opgen yet');
  const from = scaffoldOf(project.cliVersion, running);
  const fromLabel = project.cliVersion ?? firstRelease;
  if (project.cliVersion === running.version) {
    process.stdout.write(`The project has opgen ${running.version}'s scaffold already; nothing to upgrade.\n`);
    return;
  }
  if (!options.force && !options.dryRun) refuseDirtyTree(dir);

  const settings = await readProjectSettings(dir);
  const ancestor = scaffold(project, from, settings);
  const target = scaffold(project, running, settings);
  const paths = [...new Set([...ancestor.keys(), ...target.keys()])];
  const onDisk = new Map(await Promise.all(paths.map(async (path) => [path, await readIfExists(join(dir, path))] as const)));
  const steps = planUpgrade(ancestor, target, onDisk, { from: fromLabel, to: running.version }, from.rewrittenLater);
  steps.push(...(await versionSteps(dir, project, steps, running.version)));
  steps.sort((a, b) => a.path.localeCompare(b.path));

  if (!options.dryRun) await applyChanges(dir, steps.flatMap(writerChange));
  const origin = project.cliVersion ? '' : ' (PROJECT records none: the first release)';
  process.stdout.write(`Upgrading from opgen ${fromLabel}'s scaffold${origin} to ${running.version}'s\n${formatUpgrade(steps, { dryRun: options.dryRun ?? false })}\n`);
  const notes = changelogBetween(project.cliVersion, running.version);
  if (notes) process.stdout.write(`\nWhat changed (CHANGELOG.md):\n\n${notes}\n`);
  if (options.dryRun) return;

  const conflicts = steps.filter((s) => s.action === 'CONFLICT').map((s) => s.path);
  if (conflicts.length) {
    throw new UserError(
      `${conflicts.length} file${conflicts.length === 1 ? ' has' : 's have'} conflicts (${conflicts.join(', ')}): resolve the <<<<<<< markers, then run npm run manifests; nothing else was run`,
    );
  }
  process.stdout.write('\nRegenerating what opgen generates:\n');
  await regenerate(dir, project);
  if (steps.some((s) => s.path === 'package.json')) process.stdout.write('\nNext: npm install (package.json changed), then npm test.\n');
}

/** Refuses a work tree with uncommitted changes: the upgrade must be reviewable and undoable with git. */
function refuseDirtyTree(dir: string): void {
  const dirty = uncommittedChanges(dir);
  if (!dirty?.length) return;
  const shown = dirty.slice(0, 3).join(', ') + (dirty.length > 3 ? `, and ${dirty.length - 3} more` : '');
  throw new UserError(
    `the git tree has uncommitted changes (${shown}); nothing was written`,
    undefined,
    'commit or stash them first, so that the upgrade can be reviewed and undone, or pass --force',
  );
}

/** PROJECT records the new version; package.json's ranges of opgen's packages follow it. */
async function versionSteps(dir: string, project: ProjectConfig, steps: UpgradeStep[], version: string): Promise<UpgradeStep[]> {
  const added: UpgradeStep[] = [{ path: projectFileName, action: 'UPDATE', content: serializeProject({ ...project, cliVersion: version }) }];
  const planned = steps.find((s) => s.path === 'package.json');
  if (planned?.action === 'CONFLICT') return added;
  const text = planned?.content ?? (await readIfExists(join(dir, 'package.json')));
  const ranged = text === undefined ? undefined : withOpgenRanges(text, version);
  if (ranged === undefined) return added;
  if (planned) planned.content = ranged;
  else added.push({ path: 'package.json', action: 'UPDATE', content: ranged });
  return added;
}

function writerChange(step: UpgradeStep): PlannedChange[] {
  const file = { path: step.path, content: step.content ?? '', ownership: 'generated' as const, ...(step.executable ? { executable: true } : {}) };
  switch (step.action) {
    case 'SKIP':
      return [];
    case 'CREATE':
    case 'DELETE':
      return [{ path: step.path, action: step.action, file }];
    default:
      return [{ path: step.path, action: 'UPDATE', file }];
  }
}

/** The imported API types, generated again by this opgen from the CRDs the project keeps. */
async function runReimport(dir: string, project: ProjectConfig): Promise<void> {
  const { reimport } = await import('../import/reproduce.js');
  const changes = await planChanges(dir, await reimport(dir, project));
  await applyChanges(dir, changes);
  const report = formatPlan(changes);
  if (report) process.stdout.write(`${report}\n`);
}

/** The generated files, through the commands that make them. */
async function regenerate(dir: string, project: ProjectConfig): Promise<void> {
  const { runManifests } = await import('./manifests.js');
  try {
    await runReimport(dir, project);
    await runManifests({ dir });
    const plugins = project.extra.plugins;
    if (typeof plugins === 'object' && plugins !== null && 'helm.opgen.dev/v1-alpha' in plugins) {
      const { runEdit } = await import('./edit.js');
      await runEdit(dir, { plugins: 'helm' });
    }
  } catch (error) {
    if (error instanceof UserErrors) process.stderr.write('The scaffold is upgraded, but regenerating failed; fix these, then run npm run manifests:\n');
    if (!(error instanceof UserError)) throw error;
    throw new UserError(
      `the scaffold is upgraded, but regenerating failed: ${error.message}`,
      error.location,
      'fix that, then run npm run manifests',
    );
  }
}
