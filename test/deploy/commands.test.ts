import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { opgen, type RunResult } from '../scaffold/run.js';
import { kubectlBinary, project, projectDir, projectFile, scaffoldOperator, writeKubeconfig } from '../ship/support.js';

// opgen deploy, undeploy, install, uninstall and build-installer without a cluster: their help,
// --dry-run (which contacts none) and the refusals that come before any cluster is asked.
// test/ship/deploy.test.ts runs them against a real one.

const image = 'registry.example.com/team/demo-volume-operator:0.1.0';
let work: string;
let dir: string;
let unreachable: string;

beforeAll(async () => {
  ({ work, dir } = await projectDir());
  await scaffoldOperator(dir);
  unreachable = join(work, 'unreachable.kubeconfig');
  // Port 1 on loopback: nothing listens there, so a command that asked the cluster would fail.
  await writeKubeconfig(unreachable, 'https://127.0.0.1:1');
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

afterEach(() => {
  vi.unstubAllEnvs();
});

async function withKubectl(...args: string[]): Promise<RunResult> {
  vi.stubEnv('KUBECTL', await kubectlBinary());
  vi.stubEnv('KUBECONFIG', unreachable);
  vi.stubEnv('IMG', undefined);
  vi.stubEnv('npm_lifecycle_event', undefined);
  return opgen(dir, ...args);
}

function expectRefusal(result: RunResult, message: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr.trimEnd()).toMatch(message);
}

describe('--help', () => {
  it.each(['deploy', 'undeploy', 'install', 'uninstall', 'build-installer'])('of opgen %s shows examples', async (command) => {
    const help = await opgen(dir, command, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`Usage: opgen ${command} [options]`);
    expect(help.stdout).toMatch(new RegExp(`Examples:\\n  \\$ opgen ${command}\\b`));
  });

  it('of opgen lists the commands', async () => {
    const help = await opgen(dir, '--help');
    for (const command of ['deploy', 'undeploy', 'install', 'uninstall', 'build-installer']) expect(help.stdout).toMatch(new RegExp(`\\n  ${command} `));
  });
});

describe('--dry-run', () => {
  it('of deploy prints config/default with the image set, contacting no cluster and writing nothing', async () => {
    const before = await projectFile(dir, 'config/manager/manager.yaml');
    const result = await withKubectl('deploy', '--image', image, '--dry-run');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const objects = parseAllDocuments(result.stdout).map((d) => d.toJS() as { kind: string; spec?: { template?: { spec: { containers: { image: string }[] } } } });
    expect(objects.map((o) => o.kind)).toEqual(expect.arrayContaining(['Namespace', 'CustomResourceDefinition', 'ClusterRole', 'Deployment']));
    expect(objects.find((o) => o.kind === 'Deployment')?.spec?.template?.spec.containers[0]?.image).toBe(image);
    expect(await projectFile(dir, 'config/manager/manager.yaml')).toBe(before);
    // Without --dry-run the same command asks the cluster, which is not there.
    expectRefusal(await withKubectl('deploy', '--image', image), /^error: cannot reach the Kubernetes API server at https:\/\/127\.0\.0\.1:1: /);
  });

  it('of build-installer prints what deploy would apply and writes no installer', async () => {
    const result = await withKubectl('build-installer', '--image', image, '--dry-run');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe((await withKubectl('deploy', '--image', image, '--dry-run')).stdout);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });

  it('of install prints the CRDs only', async () => {
    const result = await withKubectl('install', '--dry-run');
    expect(result.code, result.stderr).toBe(0);
    expect(parseAllDocuments(result.stdout).map((d) => (d.toJS() as { metadata: { name: string } }).metadata.name)).toEqual([project.crd]);
  });

  it('of undeploy lists the deletions in order: the CRDs first, each object once', async () => {
    const result = await withKubectl('undeploy', '--dry-run');
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`delete CustomResourceDefinition ${project.crd}`);
    expect(lines).toContain(`delete Deployment ${project.namespace}/${project.name}-controller-manager`);
    expect(lines).toContain(`delete Namespace ${project.namespace}`);
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('of uninstall lists the CRDs', async () => {
    const result = await withKubectl('uninstall', '--dry-run');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`delete CustomResourceDefinition ${project.crd}\n`);
  });
});

describe('refusals before any cluster is asked', () => {
  it('no image: the hint names the way the user ran the command', async () => {
    expectRefusal(await withKubectl('deploy'), /^error: no image to deploy: pass --image <registry>\/<name>:<tag> or set IMG \(e\.g\. IMG=\S+ opgen deploy\)$/);
    vi.stubEnv('npm_lifecycle_event', 'deploy');
    expectRefusal(await opgen(dir, 'deploy'), /\(e\.g\. IMG=\S+ npm run deploy\)$/);
    expectRefusal(await withKubectl('build-installer', '--image', 'Not/An:Image:'), /^error: "Not\/An:Image:" is not an image reference/);
    expect(existsSync(join(dir, 'dist/install.yaml'))).toBe(false);
  });

  it('no kubectl', async () => {
    vi.stubEnv('KUBECTL', join(work, 'no-kubectl'));
    expectRefusal(await opgen(dir, 'install', '--dry-run'), /^error: .*no-kubectl not found: install kubectl, or set KUBECTL to its path$/);
  });

  it('not in a project', async () => {
    expectRefusal(await withKubectl('deploy', '--image', image, '--dir', work), /^error: no package\.json in .*: run this in the project's root, or pass --dir <project>$/);
  });

  it('no CRDs generated yet', async () => {
    const crd = join(dir, 'config/crd/bases/storage.civo.com_demovolumes.yaml');
    const content = await readFile(crd, 'utf8');
    await rm(crd);
    try {
      expectRefusal(
        await withKubectl('install', '--dry-run'),
        /^error: kubectl kustomize config\/crd failed: config\/crd\/bases\/storage\.civo\.com_demovolumes\.yaml does not exist: run opgen manifests first$/,
      );
    } finally {
      await writeFile(crd, content);
    }
  });
});
