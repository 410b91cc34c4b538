import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistry, type Registry } from './verdaccio.js';

// The way users get opgen: both packages published to a registry exactly as a release
// publishes them (`npm publish`, its prepack build), then, in an empty directory whose only
// registry is that one, the commands of README.md's "Getting started" as written there,
// ending with the new project's own tests against a real control plane. Third-party packages come through the
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
      const env = userEnv(reg);

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

      // With no binaries anywhere and no Go, the installed runtime names its own build script.
      const script = join(project, 'node_modules/@opgen/runtime/controlplane/build.sh');
      const missing = await execa(
        process.execPath,
        ['--input-type=module', '-e', "await (await import('@opgen/runtime/testing')).resolveBinaries({ env: { PATH: '', OPGEN_CACHE_DIR: 'none' } })"],
        { cwd: project, env, extendEnv: false, reject: false },
      );
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr).toContain(`install Go (go.dev/doc/install), which the next run uses to build them (or run \`bash ${script}\`)`);
      expect(existsSync(script)).toBe(true);
    },
    20 * 60_000,
  );
});
