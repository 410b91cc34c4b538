import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { Command, InvalidArgumentError } from 'commander';
import { parse } from 'yaml';
import { UserError } from '../errors.js';
import { contextOption, kubeconfigOption, projectDirOption } from './shared-options.js';

interface MigrateOptions {
  dir: string;
  kubeconfig?: string;
  context?: string;
  dryRun?: boolean;
  crd?: string;
  qps: number;
  pageSize?: number;
}

/** `name` is the CRD's, for this command's messages; the runtime reads the rest. */
type Migration = (
  kinds: { name: string; group: string; version: string; kind: string; plural: string; namespaced: boolean }[],
  options: { kubeConfig: unknown; qps?: number; pageSize?: number; onProgress?: (progress: { crd: string; rewritten: number }) => void },
) => Promise<{ crd: string; storageVersion: string; storedVersions: string[]; rewritten: number; resumed: boolean }[]>;

/** The kubeconfig fields this command reads: where it is about to connect. */
interface KubeConfigData {
  currentContext?: string;
  contexts?: { name: string; cluster?: string }[];
  clusters?: { name: string; server?: string }[];
}

/** The part of `@opgen/runtime` this command runs: the project's own copy, so the CLI never bundles the runtime. */
interface RuntimeMigration {
  loadKubeConfig(path?: string, options?: { context?: string }): KubeConfigData;
  migrateStorageVersions: Migration;
  /** Runtimes from the one with `--dry-run` on: absent before, so a dry run is never a real one. */
  planStorageMigration?: Migration;
}

/** `opgen migrate-storage`: the project's CRDs on the current kubectl context, every object moved into the storage version. */
export function migrateStorageCommand(): Command {
  return new Command('migrate-storage')
    .description("rewrite every object of the project's CRDs into their storage version and trim status.storedVersions, on the current kubectl context (or --context)")
    .option('--crd <names>', 'only these CRDs (comma-separated names, e.g. bookstores.blog.example.com); default: every CRD in config/crd/bases')
    .option('--qps <n>', 'requests per second at most', positiveNumber, 20)
    .option('--page-size <n>', 'objects listed per request', positiveNumber)
    .addOption(projectDirOption())
    .addOption(kubeconfigOption())
    .addOption(contextOption())
    .option('--dry-run', 'count the objects each CRD would have rewritten; write nothing')
    .addHelpText(
      'after',
      '\nRun it after a release makes a new version the storage version, before a later release removes the old one.\nA run that is interrupted resumes where it stopped.\n\nExamples:\n  $ opgen migrate-storage --dry-run\n  $ opgen migrate-storage\n  $ opgen migrate-storage --context staging --crd bookstores.blog.example.com --qps 5',
    )
    .action(async (options: MigrateOptions) => {
      const root = resolve(options.dir);
      const kinds = projectKinds(root, options.crd);
      const runtime = projectRuntime(root);
      const migrate = options.dryRun ? runtime.planStorageMigration : runtime.migrateStorageVersions;
      if (!migrate) throw new UserError(`the project's @opgen/runtime cannot plan a storage migration`, undefined, 'update @opgen/runtime to use --dry-run');
      let kubeConfig: KubeConfigData;
      try {
        kubeConfig = runtime.loadKubeConfig(options.kubeconfig, { context: options.context });
      } catch (error) {
        throw new UserError((error as Error).message);
      }
      // Said before the first request: against a server that does not answer, retries take a while.
      process.stdout.write(`${options.dryRun ? 'Counting' : 'Migrating'} ${kinds.map((k) => k.name).join(', ')} on ${where(kubeConfig)}\n`);
      const onProgress = ({ crd, rewritten }: { crd: string; rewritten: number }) => process.stdout.write(`${crd}: ${rewritten} objects ${options.dryRun ? 'counted' : 'rewritten'} so far\n`);
      let results: Awaited<ReturnType<Migration>>;
      try {
        results = await migrate(kinds, { kubeConfig, qps: options.qps, pageSize: options.pageSize, onProgress });
      } catch (error) {
        throw new UserError(`storage migration stopped: ${(error as Error).message}`, undefined, options.dryRun ? undefined : 'run it again: it resumes where it stopped');
      }
      for (const r of results) {
        const before = r.storedVersions.join(', ');
        const nothing = r.rewritten === 0 && before === r.storageVersion;
        const done = nothing
          ? 'nothing to migrate'
          : options.dryRun
            ? `would rewrite ${r.rewritten} objects${r.resumed ? ' (resuming)' : ''}, storedVersions ${before} → ${r.storageVersion}; nothing written`
            : `${r.rewritten} objects rewritten${r.resumed ? ' (resumed)' : ''}, storedVersions ${before} → ${r.storageVersion}`;
        process.stdout.write(`${r.crd}: stored as ${r.storageVersion}; ${done}\n`);
      }
    });
}

/** The server and context a kubeconfig's current context names, for the first line. */
function where(kubeConfig: KubeConfigData): string {
  const context = kubeConfig.contexts?.find((c) => c.name === kubeConfig.currentContext);
  const server = kubeConfig.clusters?.find((c) => c.name === context?.cluster)?.server;
  return `${server ?? 'the cluster'} (context ${kubeConfig.currentContext ?? 'none'})`;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!(n > 0)) throw new InvalidArgumentError('expected a number above 0');
  return n;
}

/** The kinds of the CRDs in config/crd/bases (those `--crd` names, when given). */
function projectKinds(root: string, only: string | undefined): Parameters<Migration>[0] {
  const dir = join(root, 'config/crd/bases');
  const files = existsSync(dir) ? readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort() : [];
  const kinds = files.flatMap((file) => {
    const crd = parse(readFileSync(join(dir, file), 'utf8')) as {
      kind?: string;
      metadata?: { name?: string };
      spec?: { group: string; scope: string; names: { kind: string; plural: string }; versions: { name: string; storage: boolean }[] };
    } | null;
    if (crd?.kind !== 'CustomResourceDefinition' || !crd.spec) return [];
    const version = crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]!.name;
    return [{ name: crd.metadata?.name ?? '', group: crd.spec.group, version, kind: crd.spec.names.kind, plural: crd.spec.names.plural, namespaced: crd.spec.scope === 'Namespaced' }];
  });
  if (kinds.length === 0) throw new UserError(`no CRDs in ${dir}`, undefined, 'run opgen manifests first');
  if (only === undefined) return kinds;
  const wanted = only.split(',').map((n) => n.trim()).filter(Boolean);
  for (const name of wanted) {
    if (!kinds.some((k) => k.name === name)) throw new UserError(`--crd ${name} is not a CRD of this project`, undefined, `its CRDs: ${kinds.map((k) => k.name).join(', ')}`);
  }
  return kinds.filter((k) => wanted.includes(k.name));
}

/** The project's installed `@opgen/runtime`, found as Node would from the project root. */
function projectRuntime(root: string): RuntimeMigration {
  for (let dir = root; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules/@opgen/runtime/package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string; exports?: Record<string, { import?: string } | undefined> };
      // 0.1.0 exported both from its root; later runtimes from their subpaths.
      const entry = (subpath: string) => pkg.exports?.[subpath]?.import ?? pkg.exports?.['.']?.import ?? './dist/index.js';
      // require, not import(): the bundled CLI runs from the compile cache, where import() fails; Node ≥ 20.19 requires ES modules.
      const load = (subpath: string) => createRequire(manifest)(join(dirname(manifest), entry(subpath))) as Partial<RuntimeMigration>;
      const storage = load('./storageversion');
      const runtime: Partial<RuntimeMigration> = { migrateStorageVersions: storage.migrateStorageVersions, planStorageMigration: storage.planStorageMigration, loadKubeConfig: load('./manager').loadKubeConfig };
      if (typeof runtime.migrateStorageVersions !== 'function' || typeof runtime.loadKubeConfig !== 'function') {
        throw new UserError(`@opgen/runtime ${pkg.version ?? ''} in ${dirname(manifest)} cannot migrate storage versions`, undefined, 'update @opgen/runtime');
      }
      return runtime as RuntimeMigration;
    }
    if (dirname(dir) === dir) throw new UserError(`@opgen/runtime is not installed in ${root}`, undefined, 'run npm install in the project');
  }
}
