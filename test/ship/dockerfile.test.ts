import { existsSync } from 'node:fs';
import { chmod, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ControlPlane, freePort, installCRDs, startControlPlane, waitForCRDsEstablished } from '@opgen/runtime/testing';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { buildStages, installedPackages, isIgnored, parseDockerfile, parseDockerignore, type Image, type Stage } from './dockerfile.js';
import { httpsGet, project, projectDir, repo, scaffoldOperator, waitFor } from './support.js';

// The scaffolded Dockerfile, without a Docker engine: its stages run as a script (see
// dockerfile.ts) on a project installed from the packed runtime and CLI, as a user's
// `npm install` would have it; then the image's entrypoint starts the manager as the
// image's user against a real API server. What is not tested: the base images themselves
// (neither is pulled; the host's Node.js stands in for both) and `docker build`.

let work: string;
let dir: string;
let stages: Stage[];
let image: Image;
let controlPlane: ControlPlane | undefined;

async function pack(packageDir: string): Promise<string> {
  const { stdout } = await execa('npm', ['pack', '--json', '--pack-destination', work], { cwd: packageDir });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return join(work, packed!.filename);
}

/** The environment of a RUN step: this machine's, less what the test runner and npm set for themselves. */
function buildEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !/^(npm_|NODE_ENV$|VITEST|KUBECONFIG$)/i.test(entry[0]),
    ),
  );
}

/**
 * vite 8.4 (a dev dependency, through vitest) added the optional dependency
 * napi-windows-process-start-time, which the npm registry this suite runs against does not
 * serve: `npm install` skips it and writes a lock file that `npm ci` then refuses as out of
 * sync. Under test is the Dockerfile, not vite's release, so the project gets the vite this
 * repository's own lock file installs, as an npm `overrides` entry.
 */
async function pinViteAsThisRepository(projectRoot: string): Promise<void> {
  const lock = JSON.parse(await readFile(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  const vite = lock.packages['node_modules/vite']?.version;
  if (!vite) throw new Error('package-lock.json holds no vite');
  const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(projectRoot, 'package.json'), `${JSON.stringify({ ...manifest, overrides: { vite } }, null, 2)}\n`);
}

beforeAll(async () => {
  for (const built of ['dist/cli.js', 'runtime/dist/index.js']) {
    if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: run npm run build first`);
  }
  ({ work, dir } = await projectDir());
  const [runtime, cli] = [await pack(join(repo, 'runtime')), await pack(repo)];
  await scaffoldOperator(dir, ['--runtime', `file:${runtime}`, '--cli', `file:${cli}`, '--skip-install']);
  await pinViteAsThisRepository(dir);
  // What the user commits: package-lock.json, which the image's `npm ci` installs from.
  const install = await execa('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, all: true, reject: false, env: buildEnvironment(), extendEnv: false });
  expect(install.exitCode, install.all).toBe(0);

  stages = parseDockerfile(await readFile(join(dir, 'Dockerfile'), 'utf8'));
  const ignore = parseDockerignore(await readFile(join(dir, '.dockerignore'), 'utf8'));
  image = await buildStages(stages, dir, ignore, join(work, 'image'), buildEnvironment());
}, 600_000);

afterAll(async () => {
  await controlPlane?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the scaffolded Dockerfile', () => {
  it('builds on Node.js and runs the manager on distroless Node.js, both pinned by digest, as a non-root user', () => {
    // Node.js 24, the LTS line distroless ships (debian12), in both stages.
    expect(stages.map((s) => s.base.replace(/@sha256:[0-9a-f]{64}$/, ''))).toEqual(['node:24-bookworm-slim', 'gcr.io/distroless/nodejs24-debian12:nonroot']);
    expect(stages.map((s) => s.name)).toEqual(['builder', undefined]);
    expect(image.user).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    expect(image.env.NODE_ENV).toBe('production');
    expect([...image.entrypoint, ...image.cmd]).toEqual(['node', 'dist/main.js']);
  });

  it('sends the build only its sources: no node_modules, no dist/, no credentials', async () => {
    const ignore = parseDockerignore(await readFile(join(dir, '.dockerignore'), 'utf8'));
    const sent = (path: string) => !isIgnored(path, ignore);
    expect(['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src/main.ts'].filter(sent)).toHaveLength(5);
    expect(['node_modules/typescript', 'dist/main.js', 'dist/install.yaml', '.git/config', 'README.md', 'config/default/kustomization.yaml'].filter(sent)).toEqual([]);
  });

  it('ships compiled JavaScript and production dependencies only', async () => {
    const app = join(image.root, image.workdir);
    expect((await readdir(app)).sort()).toEqual(['dist', 'node_modules', 'package.json']);
    const packages = await installedPackages(join(app, 'node_modules'));
    expect(packages).toEqual(expect.arrayContaining(['@opgen/runtime', '@kubernetes/client-node', 'pino', 'prom-client']));
    // The dev tools and what only they pull in. (@types/node stays: @kubernetes/client-node depends on it.)
    for (const dev of ['opgen', 'typescript', 'vitest', 'vite', 'esbuild', 'ts-morph', 'handlebars']) expect(packages, dev).not.toContain(dev);

    const files = (await readdir(join(app, 'dist'), { recursive: true })).map(String);
    expect(files).toContain('main.js');
    expect(files).toContain('controllers/demovolume_controller.js');
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('starts the manager from its entrypoint, as its user, with the Deployment\'s flags: ready against a real API server', async () => {
    controlPlane = await startControlPlane();
    await installCRDs(controlPlane.kubeConfig, join(dir, 'config/crd/bases'));
    await waitForCRDsEstablished(controlPlane.kubeConfig, [project.crd]);

    // The Deployment runs what the entrypoint runs, with its args; here on free loopback ports.
    const [, deployment] = parseAllDocuments(await readFile(join(dir, 'config/manager/manager.yaml'), 'utf8')).map((d) => d.toJS());
    const container = deployment.spec.template.spec.containers[0] as { command: string[]; args: string[] };
    expect(container.command).toEqual(image.entrypoint);
    const [health, metrics] = [await freePort(), await freePort()];
    const args = container.args.map((arg) =>
      arg.replace(/^--health-probe-bind-address=.*/, `--health-probe-bind-address=127.0.0.1:${health}`).replace(/^--metrics-bind-address=.*/, `--metrics-bind-address=127.0.0.1:${metrics}`),
    );
    expect(args).toContain('--leader-elect');

    // The image's user owns nothing in it and must still read all it needs.
    const kubeconfig = join(work, 'image', 'kubeconfig');
    await writeFile(kubeconfig, await readFile(controlPlane.kubeconfigPath), { mode: 0o644 });
    await chmod(work, 0o755);
    const [uid, gid] = image.user!.split(':').map(Number);
    const asImageUser = process.getuid?.() === 0 ? { uid: uid!, gid: gid! } : {};
    // Kubernetes runs the image's entrypoint with the Deployment's args in place of any CMD.
    const [command, ...entryArgs] = image.entrypoint;
    const manager = execa(command!, [...entryArgs, ...args, `--kubeconfig=${kubeconfig}`], {
      cwd: join(image.root, image.workdir),
      env: { ...image.env, PATH: process.env.PATH ?? '', HOME: '/' },
      extendEnv: false,
      all: true,
      reject: false,
      ...asImageUser,
    });
    let output = '';
    manager.all.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitFor('the manager to be ready', async () => {
        const response = await fetch(`http://127.0.0.1:${health}/readyz`).catch(() => undefined);
        return response?.status === 200 ? true : undefined;
      }, 60_000).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${output}`);
      });
      const status = await readFile(`/proc/${manager.pid}/status`, 'utf8');
      expect(status).toMatch(new RegExp(`^Uid:\\t${asImageUser.uid ?? process.getuid?.()}\\t`, 'm'));
      // Secure metrics, as the Deployment's flags ask: HTTPS, and a token the API server vouches for.
      const token = controlPlane.kubeConfig.getCurrentUser()?.token;
      expect((await httpsGet(`https://127.0.0.1:${metrics}/metrics`)).status).toBe(401);
      expect((await httpsGet(`https://127.0.0.1:${metrics}/metrics`, token)).status).toBe(200);
    } finally {
      manager.kill('SIGTERM');
    }
    const stopped = await manager;
    expect(stopped.exitCode, stopped.all).toBe(0);
    expect(stopped.all).not.toMatch(/EACCES|EROFS|permission denied/i);
  }, 120_000);
});
