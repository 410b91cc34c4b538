import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kubectlFor, startControlPlane, startOperator, type ControlPlane, type LogLine, type Operator } from '@opgen/runtime/testing';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cleanUp, projectDir } from '../scaffold/run.js';
import { helm, helmBinary, opgenOk, scaffoldDemoVolume } from './project.js';

// The chart, rendered with two replicas, installed into a real control plane, and the
// operator it deploys run twice with the identity and flags the chart gives it.
//
// The control plane has no kubelet or scheduler, so the Deployment's pods never start.
// The two replicas run here instead, out of cluster, as the pods would: the command and
// args of the chart's Deployment (bind addresses moved to free ports, as the two share a
// host), authenticated as the chart's ServiceAccount by a TokenRequest token, with their
// Lease in the release namespace as a pod's would be (LEADER_ELECTION_NAMESPACE stands in
// for the pod's namespace): the only namespace where the chart's Role allows Leases.

const repo = fileURLToPath(new URL('../../', import.meta.url));
const release = 'demo';
const namespace = 'demo-system';
const leaseName = 'demo-volume-leader';

let dir: string;
let controlPlane: ControlPlane | undefined;
let rendered: Array<Record<string, any>>; // the manifests helm rendered, read field by field
const operators: Operator[] = [];

const inProject = (command: string, args: string[]) => execa(command, args, { cwd: dir, all: true, reject: false, env: { NO_COLOR: '1' } });

beforeAll(async () => {
  for (const built of ['dist/cli.js', 'runtime/dist/index.js']) {
    if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: run npm run build first`);
  }
  await helmBinary();
  dir = await projectDir('demo-volume-operator');
  await scaffoldDemoVolume(dir, ['--runtime', `file:${join(repo, 'runtime')}`, '--cli', `file:${repo}`]);
  const install = await inProject('npm', ['install', '--no-audit', '--no-fund']);
  expect(install.exitCode, install.all).toBe(0);
  const build = await inProject('npm', ['run', 'build']);
  expect(build.exitCode, build.all).toBe(0);
  await opgenOk(dir, 'edit', '--plugins', 'helm');

  // A Lease name of the release's own, which the chart passes as --leader-election-id.
  const manifests = await helm('template', release, join(dir, 'dist/chart'), '--namespace', namespace, '--set', 'replicaCount=2', '--set', `leaderElection.leaseName=${leaseName}`);
  await writeFile(join(dir, 'rendered.yaml'), manifests);
  rendered = parseAllDocuments(manifests)
    .map((d) => d.toJS() as Record<string, any> | null)
    .filter((o): o is Record<string, any> => o !== null);
  controlPlane = await startControlPlane();
}, 20 * 60_000);

afterAll(async () => {
  await Promise.all(operators.map((o) => o.kill()));
  await controlPlane?.stop();
  if (dir) await cleanUp(dir);
});

function kubectl(...args: string[]) {
  return kubectlFor(controlPlane!, { cwd: dir }).run(args);
}

async function getJson(...args: string[]): Promise<Record<string, any> | undefined> {
  const result = await kubectl('get', '-o', 'json', ...args);
  return result.code === 0 ? (JSON.parse(result.stdout) as Record<string, any>) : undefined;
}

const leading = (l: LogLine) => l.msg === 'acquired the lease: leading';
// Workers start only on the replica that leads; a standby fills its queue but reconciles nothing.
const reconciling = (l: LogLine) => l.msg === 'Starting workers';

describe('the chart with --set replicaCount=2', () => {
  it('installs into a real control plane: the Deployment has two replicas and runs the manager with --leader-elect', async () => {
    const created = await kubectl('create', 'namespace', namespace);
    expect(created.code, created.stderr).toBe(0);
    const apply = await kubectl('apply', '--server-side', '--validate=strict', '-f', 'rendered.yaml');
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout + apply.stderr).not.toMatch(/Warning/);
    const established = await kubectl('wait', '--for=condition=established', '--timeout=60s', 'crd/demovolumes.storage.civo.com');
    expect(established.code, established.stderr).toBe(0);

    const deployment = await getJson('deployment', '-n', namespace, `${release}-demo-volume-operator-controller-manager`);
    expect(deployment?.spec.replicas).toBe(2);
    const container = deployment?.spec.template.spec.containers[0];
    expect(container.command).toEqual(['node', 'dist/main.js']);
    expect(container.args).toContain('--leader-elect');
    expect(deployment?.spec.template.spec.serviceAccountName).toBe(`${release}-demo-volume-operator-controller-manager`);
  }, 120_000);

  it('runs the operator as two replicas under the chart\'s ServiceAccount: exactly one leads, and it reconciles', async () => {
    const deployment = rendered.find((o) => o.kind === 'Deployment')!;
    const container = deployment.spec.template.spec.containers[0];
    const serviceAccount = deployment.spec.template.spec.serviceAccountName as string;
    const identity = await controlPlane!.serviceAccountKubeConfig(namespace, serviceAccount);
    expect(container.command).toEqual(['node', 'dist/main.js']);
    const replica = {
      dir,
      kubeconfigPath: identity.kubeconfigPath,
      args: [...(container.args as string[]), '--metrics-bind-address=127.0.0.1:0', '--health-probe-bind-address=127.0.0.1:0'],
      env: { LEADER_ELECTION_NAMESPACE: namespace },
    };
    operators.push(...(await Promise.all([startOperator(replica), startOperator(replica)])));
    const [a, b] = operators as [Operator, Operator];

    // Generous: two processes start on a loaded two-core machine.
    let leader: Operator | undefined;
    await expect.poll(() => (leader = [a, b].find((o) => o.logs().some(leading))), { timeout: 120_000, interval: 200 }).toBeDefined();
    const follower = leader === a ? b : a;
    const leaderIdentity = String(leader!.logs().find(leading)!.identity);
    await follower.waitForLog((l) => l.msg === 'new leader' && l.holder === leaderIdentity, 60_000);

    const lease = await getJson('lease', '-n', namespace, leaseName);
    expect(lease?.spec.holderIdentity).toBe(leaderIdentity);

    const sample = await kubectl('apply', '--server-side', '-n', namespace, '-k', 'config/samples');
    expect(sample.code, sample.stderr).toBe(0);
    const readyCondition = async () => {
      const volume = await getJson('demovolume', '-n', namespace, 'demovolume-sample');
      return volume?.status?.conditions?.find((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
    };
    await expect.poll(readyCondition, { timeout: 60_000, interval: 200 }).toBeDefined();
    expect((await readyCondition()).reason).toBe('ConfigMapInSync');
    expect(leader!.logs().some(reconciling)).toBe(true);
    expect(follower.logs().some(reconciling)).toBe(false);
    expect(follower.logs().some(leading)).toBe(false);
    const running = await Promise.all([a, b].map((o) => Promise.race([o.exited, Promise.resolve('running')])));
    expect(running).toEqual(['running', 'running']);
  }, 240_000);
});
