import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opgen } from './run.js';

// The whole path a user takes: scaffold with opgen, install the packages as npm would
// publish them, build, run the project's own tests (a real control plane), deploy the
// config/ tree to a real API server and run the operator against it. Needs `npm run build` first (npm test runs it), since
// the packages are packed from dist/.

const repo = fileURLToPath(new URL('../../', import.meta.url));
let work: string;
let dir: string;
let controlPlane: ControlPlane | undefined;

beforeAll(async () => {
  for (const built of ['dist/cli.js', 'runtime/dist/index.js']) {
    if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: run npm run build first`);
  }
  work = await mkdtemp(join(tmpdir(), 'opgen-build-'));
  dir = join(work, 'demo-volume-operator');
  await mkdir(dir);
});

afterAll(async () => {
  await controlPlane?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** `npm pack`s the package in `packageDir` into the work directory; returns the tarball's path. */
async function pack(packageDir: string): Promise<string> {
  const { stdout } = await execa('npm', ['pack', '--json', '--pack-destination', work], { cwd: packageDir });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return join(work, packed!.filename);
}

const inProject = (command: string, args: string[]) =>
  execa(command, args, { cwd: dir, all: true, reject: false, env: { NO_COLOR: '1' } });

describe('a scaffolded project', () => {
  it(
    'installs with the local runtime, builds, passes its own tests and deploys',
    async () => {
      const runtime = await pack(join(repo, 'runtime'));
      const cli = await pack(repo);

      const init = await opgen(dir, 'init', '--domain', 'civo.com', '--runtime', `file:${runtime}`, '--cli', `file:${cli}`);
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
      const create = await opgen(dir, 'create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume');
      expect(create.stderr).toBe('');

      const build = await inProject('npm', ['run', 'build']);
      expect(build.exitCode, build.all).toBe(0);
      expect(existsSync(join(dir, 'dist/main.js'))).toBe(true);
      expect(existsSync(join(dir, 'dist/controllers/demovolume_controller.test.js'))).toBe(false);

      const test = await inProject('npm', ['test']);
      expect(test.exitCode, test.all).toBe(0);
      expect(test.all).toMatch(/Tests\s+1 passed/);
      expect(existsSync(join(dir, 'config/crd/bases/storage.civo.com_demovolumes.yaml'))).toBe(true);

      const typecheck = await inProject('npx', ['tsc', '--noEmit']);
      expect(typecheck.exitCode, typecheck.all).toBe(0);

      // `npm run deploy` (kubectl's strict field validation, with the kubectl on PATH) against a
      // real API server: every object is accepted, and the manager's pod meets the "restricted"
      // Pod Security Standard.
      controlPlane = await startControlPlane();
      const kubectl = (...args: string[]) => inProject('kubectl', ['--kubeconfig', controlPlane!.kubeconfigPath, ...args]);
      const deploy = await execa('npm', ['run', 'deploy', '--', '--image', 'registry.example.com/demo-volume-operator:0.1.0'], {
        cwd: dir,
        all: true,
        reject: false,
        env: { NO_COLOR: '1', KUBECONFIG: controlPlane.kubeconfigPath },
      });
      expect(deploy.exitCode, deploy.all).toBe(0);
      expect(deploy.all).not.toMatch(/Warning/);
      expect(deploy.all).toContain('deployment.apps/demo-volume-operator-controller-manager serverside-applied');
      expect(deploy.all).toContain('clusterrolebinding.rbac.authorization.k8s.io/demo-volume-operator-manager-rolebinding serverside-applied');

      const established = await kubectl('wait', '--for=condition=established', '--timeout=30s', 'crd/demovolumes.storage.civo.com');
      expect(established.exitCode, established.all).toBe(0);

      // The operator itself, as `npm start` runs it: src/main.ts registered the controller,
      // which reconciles the sample; SIGTERM stops it cleanly.
      const operator = execa('node', ['dist/main.js', `--kubeconfig=${controlPlane.kubeconfigPath}`, '--health-probe-bind-address=0'], {
        cwd: dir,
        all: true,
        reject: false,
      });
      const sample = await kubectl('apply', '--server-side', '--validate=strict', '-n', 'default', '-k', 'config/samples');
      expect(sample.exitCode, sample.all).toBe(0);
      expect(sample.all).toContain('demovolume.storage.civo.com/demovolume-sample serverside-applied');
      const ready = await kubectl('wait', '--for=condition=Ready', '--timeout=60s', '-n', 'default', 'demovolume/demovolume-sample');
      operator.kill('SIGTERM');
      const stopped = await operator;
      expect(ready.exitCode, `${ready.all}\n${stopped.all}`).toBe(0);
      expect(stopped.exitCode, stopped.all).toBe(0);
    },
    15 * 60_000,
  );
});
