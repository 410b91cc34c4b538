import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, KUBERNETES_VERSION } from '@opgen/runtime/testing';
import { hostPlatform } from '@opgen/runtime/downloads';
import { startReleaseMirror, type ReleaseMirror } from '../../runtime/test/testing/release-mirror.js';
import { startRegistry, type Registry } from './verdaccio.js';

// The way users get opgen: both packages published to a registry exactly as a release
// publishes them (`npm publish`, its prepack build), then, in an empty directory whose only
// registry is that one, the commands of README.md's "Getting started" as written there,
// ending with the new project's own tests on the memory cluster, then on a real control plane. Third-party packages
// come through the registry's uplink, so this needs the npm registry. The user has Node and
// nothing else: no Go on the PATH, an empty opgen cache, and the release hosts served by a
// faithful mirror on loopback (packed from the locally built control plane), from which the
// project's first `OPGEN_TEST_TIER=controlplane npm test` downloads its binaries.

const repo = fileURLToPath(new URL('../../', import.meta.url));
const version = (JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { version: string }).version;

let work: string;
let registry: Registry | undefined;
let mirror: ReleaseMirror | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'opgen-registry-'));
  registry = await startRegistry(join(work, 'registry'), await upstreamRegistry());
  const built = process.env.KUBEBUILDER_ASSETS || join(homedir(), '.cache/opgen/controlplane', KUBERNETES_VERSION);
  await mkdir(join(work, 'mirror'));
  mirror = await startReleaseMirror({ version: KUBERNETES_VERSION, ...hostPlatform(), controlPlane: built, work: join(work, 'mirror') });
}, 300_000);

afterAll(async () => {
  await registry?.stop();
  await mirror?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The registry this machine's npm uses, the one the test registry proxies. */
async function upstreamRegistry(): Promise<string> {
  const { stdout } = await execa('npm', ['config', 'get', 'registry']);
  return stdout.trim();
}

/**
 * The environment of a user whose npm knows only the test registry: no npm_* variables of the
 * `npm test` running this file, a user config naming that registry, and an empty npm cache,
 * so nothing comes from an earlier run.
 */
function userEnv(reg: Registry, releases: ReleaseMirror): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && !['INIT_CWD', 'KUBEBUILDER_ASSETS', 'XDG_DATA_HOME'].includes(name)),
  );
  return {
    ...env,
    ...releases.env,
    PATH: (env.PATH ?? '').split(delimiter).filter((dir) => dir && !existsSync(join(dir, 'go'))).join(delimiter),
    HOME: join(work, 'home'),
    OPGEN_CACHE_DIR: join(work, 'opgen-cache'),
    npm_config_userconfig: reg.userconfig,
    npm_config_registry: reg.url,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
  };
}

/** The commands of README.md's "Getting started", one a line, without their comments. */
async function gettingStarted(): Promise<string[]> {
  const readme = await readFile(join(repo, 'README.md'), 'utf8');
  const block = /^## Getting started\n[\s\S]*?^```sh\n([\s\S]*?)^```/m.exec(readme);
  if (!block) throw new Error('README.md has no sh block under "## Getting started"');
  return block[1]!
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
}

/** Runs one step; fails the test with the step's whole output when it fails. */
async function step(cwd: string, env: NodeJS.ProcessEnv, command: string, ...args: string[]): Promise<{ stdout: string; all: string }> {
  const result = await execa(command, args, { cwd, env, extendEnv: false, all: true, reject: false });
  expect(result.exitCode, `${command} ${args.join(' ')} in ${cwd} failed:\n${result.all}`).toBe(0);
  return result;
}

describe('opgen from a registry', () => {
  it(
    'publishes both packages, then a new project initialises, builds and passes its own tests',
    async () => {
      const reg = registry!;
      const releases = mirror!;
      await mkdir(join(work, 'home'));
      const env = userEnv(reg, releases);
      const assets = join(work, 'opgen-cache', 'controlplane', KUBERNETES_VERSION);

      for (const dir of [join(repo, 'runtime'), repo]) await step(dir, env, 'npm', 'publish', '--registry', reg.url);
      const published = await step(work, env, 'npm', 'view', '@opgen/runtime', 'version');
      expect(published.stdout.trim()).toBe(version);

      const [first, ...commands] = await gettingStarted();
      // What the README must keep showing, so that this test keeps proving it.
      expect(commands).toEqual([
        'npx --yes opgen@latest init --domain example.com',
        'npx opgen create api --group web --version v1 --kind Widget',
        'npx opgen manifests',
        'npm run build',
        'npx tsc --noEmit',
        'npm test',
      ]);
      const made = /^mkdir (\S+) && cd \1$/.exec(first ?? '');
      expect(made, `README's Getting started begins with mkdir <dir> && cd <dir>, not: ${first}`).not.toBeNull();
      const project = join(work, made![1]!);
      await mkdir(project);
      let output = '';
      for (const command of commands) {
        const [program, ...args] = command.split(/\s+/);
        output = (await step(project, env, program!, ...args)).all;
        if (args.includes('init')) {
          const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
            dependencies: Record<string, string>;
            devDependencies: Record<string, string>;
          };
          expect(manifest.dependencies['@opgen/runtime']).toBe(`^${version}`);
          expect(manifest.devDependencies.opgen).toBe(`^${version}`);
        }
      }
      expect(output).toMatch(/Tests\s+1 passed \(1\)/);
      // The starter's test ran on the memory cluster: nothing downloaded, no binaries in the cache.
      expect(releases.requests.get(releases.envtestArchive.urlPath) ?? 0).toBe(0);
      expect(existsSync(assets)).toBe(false);

      // The same test on the real control plane: its first run downloads the binaries from the mirror, verified, into the cache.
      output = (await step(project, { ...env, OPGEN_TEST_TIER: 'controlplane' }, 'npm', 'test')).all;
      expect(output).toMatch(/Tests\s+1 passed \(1\)/);
      expect(output).toContain(`controlplane: downloading etcd, kube-apiserver, kubectl v${KUBERNETES_VERSION} into ${assets}`);
      expect(output).toMatch(/download: envtest-v[\d.]+-\w+-\w+\.tar\.gz: [\d.]+ MB in [\d.]+ s, sha512 verified/);
      expect((await readdir(assets)).sort()).toEqual(['etcd', 'kube-apiserver', 'kubectl']);
      expect(releases.requests.get(releases.envtestArchive.urlPath)).toBe(1);

      // Fetching ahead of time (CI) finds them in place and prints the directory for KUBEBUILDER_ASSETS.
      const ahead = await step(project, env, 'npx', 'opgen', 'setup-envtest', '--print-path');
      expect(ahead.stdout.trim()).toBe(assets);
      expect(releases.requests.get(releases.envtestArchive.urlPath)).toBe(1);

      // With no binaries, no download and no Go, the installed runtime says the three ways out in one line.
      const script = join(project, 'node_modules/@opgen/runtime/controlplane/build.sh');
      const offline = `http://127.0.0.1:${await freePort()}/envtest-releases.yaml`;
      const missing = await execa(
        process.execPath,
        ['--input-type=module', '-e', "await (await import('@opgen/runtime/testing')).resolveBinaries()"],
        { cwd: project, env: { ...env, OPGEN_CACHE_DIR: join(work, 'empty-cache'), OPGEN_ENVTEST_INDEX: offline }, extendEnv: false, reject: false },
      );
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr).toContain(`control plane binaries not found: etcd, kube-apiserver; cannot download ${offline}: connect ECONNREFUSED`);
      expect(missing.stderr).toContain(`or install Go (go.dev/doc/install) so the next run builds them (or run \`bash ${script}\`), or point OPGEN_ENVTEST_INDEX at a mirror of ${offline}`);
      expect(existsSync(script)).toBe(true);
    },
    20 * 60_000,
  );
});
