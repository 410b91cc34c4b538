import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { UserError } from '../errors.js';
import { parseBool } from './bool-flag.js';
import { mergeGitignore } from '../generators/scaffold/gitignore-merge.js';
import { helmOperatorInitFiles } from '../generators/helm-operator/init.js';
import { helmOperatorPlugin } from '../generators/helm-operator/plugin.js';
import { multiclusterPlugin, namespacedFleetError } from '../generators/multicluster/plugin.js';
import { initFiles } from '../generators/scaffold/init.js';
import { validateDomain, validateOwner, validateProjectName } from '../names/validate.js';
import { withCertificateMode } from '../project/webhooks.js';
import { projectFileName, type ProjectConfig } from '../project/model.js';
import { cliVersion } from '../version.js';
import { applyChanges, formatPlan, planChanges, type GeneratedFile } from '../writer/index.js';
import { readIfExists } from '../read-if-exists.js';
import { projectDirOption, type ProjectDirFlag } from './shared-options.js';

export interface InitOptions {
  domain: string;
  projectName?: string;
  owner?: string;
  license: 'apache2' | 'none';
  namespaced: boolean;
  multigroup: boolean;
  runtime?: string;
  cli?: string;
  /** Comma-separated plugins; `helm-operator` is the one init knows. */
  plugins?: string;
  /** Webhooks served with cert-manager's certificates instead of the built-in ones. */
  certManager?: boolean;
  /** Controllers reconcile every cluster named by a kubeconfig Secret (a fleet). */
  multicluster?: boolean;
  skipInstall?: boolean;
  force?: boolean;
  dryRun?: boolean;
}

const examples = `
Examples:
  # A project for APIs in the civo.com domain, named after the current directory
  $ mkdir demo-volume-operator && cd demo-volume-operator
  $ opgen init --domain civo.com

  # The same in a new directory
  $ opgen init --domain civo.com --dir demo-volume-operator

  # An operator that only watches its own namespace, with several API groups
  $ opgen init --domain example.com --project-name shop-operator --namespaced --multigroup

  # See what would be written, without writing or installing anything
  $ opgen init --domain example.com --dry-run

  # An operator whose kinds are reconciled by Helm charts (operator-sdk's helm operator)
  $ opgen init --domain example.com --plugins helm-operator

  # An operator of many clusters: each named by a kubeconfig Secret, its kinds reconciled on each
  $ opgen init --domain example.com --multicluster

  # Webhooks certified by cert-manager (kubebuilder's default) instead of the manager itself
  $ opgen init --domain example.com --cert-manager

  # Try an unreleased runtime
  $ opgen init --domain example.com --runtime file:../opgen/runtime`;

/** `opgen init`: scaffolds a new operator project in the current directory. */
export function initCommand(): Command {
  return new Command('init')
    .description('scaffold a new operator project in the current directory')
    .option('--domain <domain>', 'domain of the project\'s API groups (<group>.<domain>)', 'my.domain')
    .option('--project-name <name>', 'name of the project, a DNS-1123 label (default: the directory name)')
    .option('--owner <owner>', 'copyright owner named in the license header of source files')
    .addOption(new Option('--license <license>', 'license header of source files').choices(['apache2', 'none']).default('apache2'))
    .option('--namespaced [bool]', 'the operator watches one namespace (a Role); --namespaced=false (default) for the whole cluster (a ClusterRole)', parseBool, false)
    .option('--multigroup', 'API types under src/api/<group>/<version>/, for several API groups', false)
    .option('--runtime <spec>', `npm spec of @opgen/runtime (default: ^${cliVersion})`)
    .option('--cli <spec>', `npm spec of the opgen CLI the project's scripts run (default: ^${cliVersion})`)
    .option('--plugins <plugins>', 'helm-operator: kinds reconciled by Helm charts listed in watches.yaml, as operator-sdk\'s helm operator')
    .option('--multicluster', 'controllers reconcile their kinds on every cluster a kubeconfig Secret names (multicluster-runtime\'s kubeconfig provider), not on the manager\'s own cluster')
    .option('--cert-manager', "webhooks get cert-manager's certificates (a Certificate and Issuer in config/certmanager, CA injection), not the built-in ones the manager keeps by patching its webhook configurations")
    .option('--skip-install', 'do not run npm install')
    .option('--force', 'scaffold into a directory that is not empty, overwriting files')
    .addOption(projectDirOption('where to scaffold the project; created if missing (default: the working directory)'))
    .option('--dry-run', 'print what would be written; write nothing')
    .addHelpText('after', examples)
    .action(async ({ dir, ...options }: InitOptions & ProjectDirFlag) => {
      await runInit(dir, options);
    });
}

/** Scaffolds the project in `root`; see {@link initCommand}. */
export async function runInit(root: string, options: InitOptions): Promise<void> {
  const dir = resolve(root);
  const projectName = options.projectName ?? basename(dir);
  validateProjectName(projectName, options.projectName === undefined);
  validateDomain(options.domain);
  if (options.owner !== undefined) validateOwner(options.owner);
  for (const [flag, spec] of [['--runtime', options.runtime], ['--cli', options.cli]] as const) {
    if (spec !== undefined && spec.trim() === '') throw new UserError(`${flag} needs an npm spec, e.g. ^${cliVersion} or file:../runtime`);
  }
  const helmOperator = helmOperatorChosen(options.plugins);
  if (options.multicluster && options.namespaced) throw namespacedFleetError('--namespaced');
  if (options.multicluster && helmOperator) {
    throw new UserError('--multicluster and --plugins helm-operator do not combine yet: a chart-backed operator reconciles its own cluster only');
  }
  await refuseExistingProject(dir);
  if (!options.force) await ensureEmpty(dir);

  const initial: ProjectConfig = {
    cliVersion,
    domain: options.domain,
    projectName,
    multigroup: options.multigroup,
    namespaced: options.namespaced,
    resources: [],
    extra: helmOperator ? { plugins: { [helmOperatorPlugin]: {} } } : options.multicluster ? { plugins: { [multiclusterPlugin]: {} } } : {},
  };
  // Recorded now, used by the first create webhook.
  const project = options.certManager ? withCertificateMode(initial, 'cert-manager') : initial;
  const files = (helmOperator ? helmOperatorInitFiles : initFiles)({
    project,
    license: options.license,
    owner: options.owner,
    year: copyrightYear(),
    runtimeSpec: options.runtime ?? `^${cliVersion}`,
    cliSpec: options.cli ?? `^${cliVersion}`,
    devTools: await devTools(),
  });
  const changes = await planChanges(dir, await keepRepositoryFiles(dir, files), { force: options.force ?? false });
  if (!options.dryRun) await applyChanges(dir, changes);
  process.stdout.write(`${formatPlan(changes, { dryRun: options.dryRun ?? false })}\n`);
  if (options.dryRun) return;

  if (!options.skipInstall) await npmInstall(dir);
  const cd = dir === resolve() ? '' : `  $ cd ${relative(resolve(), dir)}\n`;
  process.stdout.write(
    helmOperator
      ? `\nNext: add a kind reconciled by a chart, e.g.\n${cd}  $ opgen create api --group <group> --version v1alpha1 --kind <Kind> --helm-chart <dir>\n`
      : `\nNext: define an API and its controller, e.g.\n${cd}  $ opgen create api --group <group> --version v1 --kind <Kind>\n`,
  );
}

/** Whether --plugins asks for a chart-backed project; an unknown plugin is refused by name. */
function helmOperatorChosen(plugins: string | undefined): boolean {
  if (plugins === undefined) return false;
  const names = plugins.split(',').map((p) => p.trim()).filter(Boolean);
  const unknown = names.find((p) => p !== 'helm-operator');
  if (unknown !== undefined || names.length === 0) {
    throw new UserError(`--plugins ${plugins}: unknown plugin ${unknown ?? '(none given)'}`, undefined, 'init knows the plugin helm-operator; others are added to a project with opgen edit --plugins');
  }
  return true;
}

/**
 * Entries a directory may hold before `init` without --force: what a new repository on a
 * forge starts with (version control and editor folders, .gitignore, a license, a README),
 * which init keeps; anything else may be another project.
 */
function tolerated(name: string): boolean {
  return (name.startsWith('.') && name !== '.dockerignore') || /^(LICENSE|LICENCE|COPYING)(\..*)?$/i.test(name) || name === readme;
}

const readme = 'README.md';
const gitignore = '.gitignore';

/**
 * An opgen project is never scaffolded over, not even with --force: that would forget the
 * kinds PROJECT records, their registrations in src/main.ts, the kustomizations and the
 * user's package.json. Growing or changing a project has its own commands.
 */
async function refuseExistingProject(dir: string): Promise<void> {
  if ((await readIfExists(join(dir, projectFileName))) === undefined) return;
  throw new UserError(
    `an opgen project is already here; init never scaffolds over one, and nothing was written`,
    { file: projectFileName },
    'add kinds with opgen create api, change the project\'s settings with opgen edit',
  );
}

/** The scaffold without what the repository already has: its README stays, its .gitignore gains opgen's lines. */
async function keepRepositoryFiles(dir: string, files: GeneratedFile[]): Promise<GeneratedFile[]> {
  const [ownReadme, ownGitignore] = await Promise.all([readIfExists(join(dir, readme)), readIfExists(join(dir, gitignore))]);
  return files
    .filter((file) => !(file.path === readme && ownReadme !== undefined))
    .map((file) =>
      file.path === gitignore && ownGitignore !== undefined
        ? { ...file, content: mergeGitignore(ownGitignore, file.content), ownership: 'generated' }
        : file,
    );
}


async function ensureEmpty(dir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    // --dir may name a directory still to be made: the first write makes it.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const others = entries.filter((name) => !tolerated(name)).sort();
  if (others.length > 0) {
    const shown = others.slice(0, 3).join(', ') + (others.length > 3 ? `, and ${others.length - 3} more` : '');
    throw new UserError(`${dir} is not empty (${shown}); nothing was written`, undefined, 'run opgen init in an empty directory, or pass --force');
  }
}

/** The year of the license header: SOURCE_DATE_EPOCH's when set (reproducible builds), else this year. */
function copyrightYear(): number {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch && /^\d+$/.test(epoch)) return new Date(Number(epoch) * 1000).getUTCFullYear();
  return new Date().getFullYear();
}

/** The versions of TypeScript, vitest, ESLint and Node types opgen itself is built, tested and linted with. */
async function devTools(): Promise<Record<string, string>> {
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  return Object.fromEntries(
    ['@eslint/js', '@types/node', 'eslint', 'typescript', 'typescript-eslint', 'vitest'].map((name) => {
      const version = manifest.devDependencies[name];
      if (!version) throw new Error(`opgen's package.json lacks the devDependency ${name}`);
      return [name, version];
    }),
  );
}

async function npmInstall(dir: string): Promise<void> {
  process.stdout.write('\nRunning npm install…\n');
  // Loaded here: init is the only command that runs a process.
  const { execa } = await import('execa');
  const result = await execa('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit', reject: false });
  if (result.exitCode !== 0) {
    // The scaffold is complete without its packages (a registry down, offline): say exactly
    // what finishes it, rather than leave the user to guess or to re-run init over it.
    throw new UserError(
      `npm install failed (exit code ${result.exitCode ?? result.signal}); the project is written in full`,
      undefined,
      `once the registry can be reached, run: cd ${shellQuote(dir)} && npm install`,
    );
  }
}

/** `path` as one shell word. */
function shellQuote(path: string): string {
  return /^[\w./+-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
