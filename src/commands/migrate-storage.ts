import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { Command, InvalidArgumentError } from 'commander';
import { parse } from 'yaml';
import { UserError } from '../errors.js';

interface MigrateOptions {
  dir: string;
  crd?: string;
  qps: number;
  pageSize?: number;
}

/** The part of `@opgen/runtime` this command runs: the project's own copy, so the CLI never bundles the runtime. */
interface RuntimeMigration {
  loadKubeConfig(): unknown;
  migrateStorageVersions(
    kinds: { group: string; version: string; kind: string; plural: string; namespaced: boolean }[],
    options: { kubeConfig: unknown; qps?: number; pageSize?: number },
  ): Promise<{ crd: string; storageVersion: string; storedVersions: string[]; rewritten: number; resumed: boolean }[]>;
}

/** `opgen migrate-storage`: the project's CRDs on the current kubectl context, every object moved into the storage version. */
export function migrateStorageCommand(): Command {
  return new Command('migrate-storage')
    .description("rewrite every object of the project's CRDs into their storage version and trim status.storedVersions, on the current kubectl context")
    .option('--crd <names>', 'only these CRDs (comma-separated names, e.g. bookstores.blog.example.com); default: every CRD in config/crd/bases')
    .option('--qps <n>', 'requests per second at most', positiveNumber, 20)
    .option('--page-size <n>', 'objects listed per request', positiveNumber)
    .option('--dir <path>', 'the project root', '.')
    .addHelpText('after', '\nRun it after a release makes a new version the storage version, before a later release removes the old one.\nA run that is interrupted resumes where it stopped.\n\nExamples:\n  $ opgen migrate-storage\n  $ opgen migrate-storage --crd bookstores.blog.example.com --qps 5')
    .action(async (options: MigrateOptions) => {
      const root = resolve(options.dir);
      const kinds = projectKinds(root, options.crd);
      const runtime = projectRuntime(root);
      let kubeConfig: unknown;
      try {
        kubeConfig = runtime.loadKubeConfig();
      } catch (error) {
        throw new UserError((error as Error).message);
      }
      let results: Awaited<ReturnType<RuntimeMigration['migrateStorageVersions']>>;
      try {
        results = await runtime.migrateStorageVersions(kinds, { kubeConfig, qps: options.qps, pageSize: options.pageSize });
      } catch (error) {
        throw new UserError(`storage migration stopped: ${(error as Error).message}`, undefined, 'run it again: it resumes where it stopped');
      }
      for (const r of results) {
        const before = r.storedVersions.join(', ');
        const done = r.rewritten === 0 && before === r.storageVersion ? 'nothing to migrate' : `${r.rewritten} objects rewritten${r.resumed ? ' (resumed)' : ''}, storedVersions ${before} → ${r.storageVersion}`;
        process.stdout.write(`${r.crd}: stored as ${r.storageVersion}; ${done}\n`);
      }
    });
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!(n > 0)) throw new InvalidArgumentError('expected a number above 0');
  return n;
}

/** The kinds of the CRDs in config/crd/bases (those `--crd` names, when given). */
function projectKinds(root: string, only: string | undefined): Parameters<RuntimeMigration['migrateStorageVersions']>[0] {
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
      const runtime: Partial<RuntimeMigration> = { migrateStorageVersions: load('./storageversion').migrateStorageVersions, loadKubeConfig: load('./manager').loadKubeConfig };
      if (typeof runtime.migrateStorageVersions !== 'function' || typeof runtime.loadKubeConfig !== 'function') {
        throw new UserError(`@opgen/runtime ${pkg.version ?? ''} in ${dirname(manifest)} cannot migrate storage versions`, undefined, 'update @opgen/runtime');
      }
      return runtime as RuntimeMigration;
    }
    if (dirname(dir) === dir) throw new UserError(`@opgen/runtime is not installed in ${root}`, undefined, 'run npm install in the project');
  }
}
