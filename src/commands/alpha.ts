import { readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { UserError } from '../errors.js';
import { loadProject } from '../project/load.js';
import { projectFileName } from '../project/model.js';
import { serializeProject } from '../project/serialize.js';
import { scaffold, upgradeByHand } from '../upgrade/replay.js';
import { refuseInHelmOperatorProject } from './helm-operator-guard.js';
import { currentScaffold } from '../upgrade/scaffold-version.js';
import { readProjectSettings } from '../upgrade/settings.js';
import { applyChanges, formatPlan, planChanges, type GeneratedFile } from '../writer/index.js';
import { reimport } from '../import/reproduce.js';
import { projectDirOption, type ProjectDirFlag } from './shared-options.js';

interface GenerateOptions {
  outputDir?: string;
  force?: boolean;
  dryRun?: boolean;
}

const examples = `
Examples:
  # The project as this opgen would scaffold it today, beside it, to compare
  $ opgen alpha generate --output-dir ../fresh && diff -r . ../fresh

  # Put back scaffolded files you deleted (files that exist are left as they are)
  $ opgen alpha generate`;

/** `opgen alpha`: commands whose behaviour may still change. */
export function alphaCommand(): Command {
  return new Command('alpha')
    .description('experimental commands: generate re-scaffolds the project from PROJECT')
    .addHelpText('after', '\nExample:\n  $ opgen alpha generate --output-dir ../fresh')
    .addCommand(
      new Command('generate')
        .description('re-scaffold the whole project from PROJECT (init, then every create api) into a directory')
        .option('--output-dir <dir>', 'where to write the scaffold (default: the project itself, where only missing files are written)')
        .option('--force', 'overwrite files that differ from the scaffold (never deletes one)')
        .addOption(projectDirOption())
        .option('--dry-run', 'print what would be written; write nothing')
        .addHelpText('after', examples)
        .action(async ({ dir, ...options }: GenerateOptions & ProjectDirFlag) => {
          await runAlphaGenerate(dir, options);
        }),
    );
}

/**
 * Renders the project at `root` from its PROJECT with this opgen's scaffold into
 * `options.outputDir` (default: `root`). Nothing is ever deleted: in place, a file that
 * exists is kept unless --force; a separate directory must be empty unless --force.
 */
export async function runAlphaGenerate(root: string, options: GenerateOptions): Promise<void> {
  const dir = resolve(root);
  const out = resolve(dir, options.outputDir ?? '.');
  const inPlace = out === dir;
  const project = await loadProject(dir, 'opgen alpha generate');
  refuseInHelmOperatorProject(project, 'opgen alpha generate', upgradeByHand, 'is not re-scaffolded by this opgen yet');
  if (!inPlace && !options.force) await ensureEmpty(out);
  const files = scaffold(project, currentScaffold, await readProjectSettings(dir));
  // Elsewhere, the imported API types come along, generated again from the CRDs the project keeps.
  const imported = inPlace ? [] : await reimport(dir, project);
  // In place, a file that differs is the user's unless --force; elsewhere, --force lets the writer overwrite.
  const ownership: GeneratedFile['ownership'] = options.force ? 'generated' : inPlace ? 'once' : 'user';
  // Elsewhere PROJECT says whose scaffold it is; in place it stays as it is, since the files that differ do too.
  const generated: GeneratedFile[] = [
    ...(inPlace ? [] : [{ path: projectFileName, content: serializeProject({ ...project, cliVersion: currentScaffold.version }), ownership }]),
    ...[...files].map(([path, file]) => ({ path, content: file.content, ownership, ...(file.executable ? { executable: true } : {}) })),
    ...imported.map((file) => ({ ...file, ownership })),
  ];
  const changes = await planChanges(out, generated);
  if (!options.dryRun) await applyChanges(out, changes);
  const report = formatPlan(changes, { dryRun: options.dryRun ?? false });
  if (report) process.stdout.write(`${report}\n`);
  if (!options.dryRun && !inPlace) process.stdout.write(`\nNext: cd ${options.outputDir} && npm install && npm run manifests\n`);
}

async function ensureEmpty(dir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (entries.length > 0) {
    throw new UserError(`--output-dir ${dir} is not empty; nothing was written`, undefined, 'pass an empty or new directory, or --force to overwrite files in it');
  }
}
