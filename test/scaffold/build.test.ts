import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { opgen } from './run.js';
import { packedProject } from './packed-project.js';

// The whole path a user takes: scaffold with opgen, install the packages as npm would
// publish them, build, run the project's own tests (a real control plane), deploy the
// config/ tree to a real API server and run the operator against it. Needs `npm run build` first (npm test runs it), since
// the packages are packed from dist/.

const project = packedProject('demo-volume-operator');

/** `path` without the directories that hold a `go` binary. */
function withoutGo(path: string): string {
  return path
    .split(delimiter)
    .filter((dir) => !existsSync(join(dir, 'go')))
    .join(delimiter);
}
const { inProject } = project;
let controlPlane: ControlPlane | undefined;

afterAll(async () => {
  await controlPlane?.stop();
});

describe('a scaffolded project', () => {
  it(
    'installs with the local runtime, builds, passes its own tests and deploys',
    async () => {
      await project.init('civo.com');
      const create = await opgen(project.dir, 'create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume');
      expect(create.stderr).toBe('');

      const build = await inProject('npm', ['run', 'build']);
      expect(build.exitCode, build.all).toBe(0);
      expect(existsSync(join(project.dir, 'dist/main.js'))).toBe(true);
      expect(existsSync(join(project.dir, 'dist/controllers/demovolume_controller.test.js'))).toBe(false);

      // npm test runs the controller's test on the memory cluster: with no control plane
      // binaries to be found, nothing to download and no Go, it passes all the same.
      const nowhere = join(project.dir, '.no-binaries');
      const test = await execa('npm', ['test'], {
        cwd: project.dir,
        all: true,
        reject: false,
        env: { NO_COLOR: '1', KUBEBUILDER_ASSETS: '', OPGEN_CACHE_DIR: nowhere, XDG_DATA_HOME: nowhere, OPGEN_ENVTEST_INDEX: 'http://127.0.0.1:1/unreachable', OPGEN_K8S_RELEASE_URL: 'http://127.0.0.1:1/unreachable', PATH: withoutGo(process.env.PATH ?? '') },
      });
      expect(test.exitCode, test.all).toBe(0);
      expect(test.all).toMatch(/Tests\s+1 passed/);
      // opgen manifests keeps its compile cache there; no binary was fetched or unpacked.
      expect(existsSync(join(nowhere, 'controlplane'))).toBe(false);
      expect(existsSync(join(nowhere, 'kubebuilder-envtest'))).toBe(false);
      expect(existsSync(join(project.dir, 'config/crd/bases/storage.civo.com_demovolumes.yaml'))).toBe(true);

      const typecheck = await inProject('npx', ['tsc', '--noEmit']);
      expect(typecheck.exitCode, typecheck.all).toBe(0);

      // `npm run deploy` (kubectl's strict field validation, with the kubectl on PATH) against a
      // real API server: every object is accepted, and the manager's pod meets the "restricted"
      // Pod Security Standard.
      controlPlane = await startControlPlane();
      const kubectl = (...args: string[]) => inProject('kubectl', ['--kubeconfig', controlPlane!.kubeconfigPath, ...args]);
      const deploy = await execa('npm', ['run', 'deploy', '--', '--image', 'registry.example.com/demo-volume-operator:0.1.0'], {
        cwd: project.dir,
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
        cwd: project.dir,
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
