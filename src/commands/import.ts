import { resolve } from 'node:path';
import { Command } from 'commander';
import { formatUserWarning, UserError } from '../errors.js';
import { generateImport, type LocatedProblem } from '../import/generate.js';
import { readCrds } from '../import/read.js';
import { checkChecksum, originName, withImport } from '../import/record.js';
import { staleImportFiles } from '../import/stale.js';
import { readClusterCrd, readSource, type Source } from '../import/source.js';
import { loadProject } from '../project/load.js';
import { projectFileName } from '../project/model.js';
import { serializeProject } from '../project/serialize.js';
import { applyChanges, formatPlan, planChanges, removeEmptyFolders, type PlannedChange } from '../writer/index.js';
import { projectDirOption } from './shared-options.js';

interface ImportCrdOptions {
  fromCluster?: string;
  update?: boolean;
  dryRun?: boolean;
  dir: string;
}

/** `opgen import crd`: typed API files for other projects' CRDs. */
export function importCommand(): Command {
  const command = new Command('import')
    .description("generate typed API files from other projects' CRDs")
    .addHelpText('after', '\nExample:\n  $ opgen import crd ./crds/cert-manager.crds.yaml');
  command
    .command('crd')
    .description('write TypeScript types, markers and a defineKind handle under src/external/<group>/<version>/ for every served version of each CRD in a file, URL or stdin')
    .argument('[source]', 'a YAML file, an http(s) URL, or - for stdin')
    .option('--from-cluster <name>', 'import the CRD of this name from the current kubectl context')
    .option('--update', 'accept a URL whose content changed since its recorded import')
    .option('--dry-run', 'print what would be written; write nothing')
    .addOption(projectDirOption())
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ opgen import crd https://github.com/cert-manager/cert-manager/releases/download/v1.19.1/cert-manager.crds.yaml',
        '  $ opgen import crd ./crds/gateway.networking.k8s.io_httproutes.yaml',
        '  $ kubectl kustomize "github.com/kubernetes-sigs/gateway-api/config/crd?ref=v1.6.1" | opgen import crd -',
        '  $ opgen import crd --from-cluster certificates.cert-manager.io',
      ].join('\n'),
    )
    .action(async (input: string | undefined, options: ImportCrdOptions) => runImport(input, options));
  return command;
}

async function runImport(input: string | undefined, options: ImportCrdOptions): Promise<void> {
  if ((input === undefined) === (options.fromCluster === undefined)) {
    throw new UserError(input === undefined ? 'missing the CRDs to import' : `${input} and --from-cluster: import one source at a time`, undefined, 'opgen import crd <file|URL|-> or opgen import crd --from-cluster <name>');
  }
  const root = resolve(options.dir);
  const project = await loadProject(root, 'opgen import crd');
  const source: Source = input !== undefined ? await readSource(input, root, readStdin) : await readClusterCrd(options.fromCluster!);
  checkChecksum(project, source, options.update === true);
  const name = originName(source.origin);
  const crds = readCrds(source.text, name);
  const { files, problems } = generateImport(crds.map(({ crd, line }) => ({ crd, source: name, line })));
  files.push({ path: projectFileName, content: serializeProject(withImport(project, source, crds.map(({ crd }) => crd.metadata.name))), ownership: 'generated' });
  // A CRD or version the source no longer has leaves no file behind: one plan, all or nothing.
  const stale = (await staleImportFiles(root, name, files)).map((path): PlannedChange => ({ path, action: 'DELETE', file: { path, content: '', ownership: 'generated' } }));
  const changes = [...(await planChanges(root, files)), ...stale].sort((a, b) => a.path.localeCompare(b.path));
  if (!options.dryRun) {
    await applyChanges(root, changes);
    await removeEmptyFolders(root, stale.map((c) => c.path));
  }
  for (const problem of problems) process.stderr.write(`${warning(problem)}\n`);
  process.stdout.write(`${formatPlan(changes, { dryRun: options.dryRun })}\n`);
}

/** A construct that will not come back through opgen manifests, where it is in the input. */
function warning(problem: LocatedProblem): string {
  return formatUserWarning(new UserError(`${problem.crd}: ${problem.path}: ${problem.message}`, { file: problem.source, ...(problem.line !== undefined ? { line: problem.line } : {}) }));
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
