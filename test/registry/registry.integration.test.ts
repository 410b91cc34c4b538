import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistry, type Registry } from './verdaccio.js';

// The way users get opgen: both packages published to a registry exactly as a release
// publishes them (`npm publish`, its prepack build), then, in an empty directory whose only
// registry is that one, the README's "Getting started" word for word, ending with the new
// project's own tests against a real control plane. Third-party packages come through the
// registry's uplink, so this needs the npm registry (and Go, if the control plane cache is cold).

const repo = fileURLToPath(new URL('../../', import.meta.url));
const version = (JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { version: string }).version;

let work: string;
let registry: Registry | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'opgen-registry-'));
  registry = await startRegistry(join(work, 'registry'), await upstreamRegistry());
}, 60_000);

afterAll(async () => {
  await registry?.stop();
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
function userEnv(reg: Registry): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD'));
  return {
    ...env,
    npm_config_userconfig: reg.userconfig,
    npm_config_registry: reg.url,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
  };
}

/** Runs one step; fails the test with the step's whole output when it fails. */
async function step(cwd: string, env: NodeJS.ProcessEnv, command: string, ...args: string[]): Promise<string> {
  const result = await execa(command, args, { cwd, env, extendEnv: false, all: true, reject: false });
  expect(result.exitCode, `${command} ${args.join(' ')} in ${cwd} failed:\n${result.all}`).toBe(0);
  return result.all;
}

describe('opgen from a registry', () => {
  it(
    'publishes both packages, then a new project initialises, builds and passes its own tests',
    async () => {
      const reg = registry!;
      const env = userEnv(reg);

      for (const dir of [join(repo, 'runtime'), repo]) await step(dir, env, 'npm', 'publish', '--registry', reg.url);
      const published = await step(work, env, 'npm', 'view', '@opgen/runtime', 'version');
      expect(published.trim()).toBe(version);

      const project = join(work, 'widget-operator');
      await mkdir(project);
      // README.md, "Getting started", as written there.
      await step(project, env, 'npx', '--yes', 'opgen@latest', 'init', '--domain', 'example.com');
      const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
        devDependencies: Record<string, string>;
      };
      expect(manifest.dependencies['@opgen/runtime']).toBe(`^${version}`);
      expect(manifest.devDependencies.opgen).toBe(`^${version}`);

      await step(project, env, 'npx', 'opgen', 'create', 'api', '--group', 'web', '--version', 'v1', '--kind', 'Widget');
      await step(project, env, 'npx', 'opgen', 'manifests');
      await step(project, env, 'npm', 'run', 'build');
      await step(project, env, 'npx', 'tsc', '--noEmit');
      const tests = await step(project, env, 'npm', 'test');
      expect(tests).toMatch(/Tests\s+1 passed \(1\)/);
    },
    20 * 60_000,
  );
});
