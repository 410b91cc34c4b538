import { fileURLToPath } from 'node:url';
import {
  buildProject,
  kubectlFor,
  startControlPlane,
  startOperator,
  type ControlPlane,
  type Kubectl,
  type LogLine,
  type Operator,
} from '@opgen/runtime/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// The high-availability scenario of the echoperator tutorial, driven only through the API
// server: two replicas of the operator campaign for one Lease; the leader reconciles; when
// it dies (SIGKILL, no chance to release the Lease) the other takes over once the lease
// expires and carries on.

interface Job {
  metadata: { name: string; uid: string; ownerReferences?: Array<{ kind: string; name: string; uid: string; controller?: boolean }> };
  spec: { template: { spec: { containers: Array<{ command: string[] }> } } };
}

const project = fileURLToPath(new URL('../..', import.meta.url));
const poll = { timeout: 30_000, interval: 250 };
let controlPlane: ControlPlane | undefined;
let kubectl: Kubectl;
let replicas: Operator[] = [];
let leader: Operator;
let follower: Operator;
let lease: { namespace: string; name: string };

/** The first log line of `operator` with message `msg`, if any. */
const logged = (operator: Operator, msg: string): LogLine | undefined => operator.logs().find((line) => line.msg === msg);
const holder = async (): Promise<string | undefined> =>
  (await kubectl.get('lease', lease.name))?.spec?.holderIdentity;
const identity = (operator: Operator): unknown => logged(operator, 'acquired the lease: leading')?.identity;
const echoJobs = async (): Promise<Job[]> =>
  (await kubectl.list<Job>('jobs')).filter((job) => job.metadata.ownerReferences?.some((ref) => ref.kind === 'Echo' && ref.controller));

/**
 * Installs config/rbac as `npm run deploy` would (without the name prefix): the manager's
 * ServiceAccount `system/controller-manager`, the ClusterRole its RBAC markers give it, and
 * leader election. Outside a cluster the operator keeps its Lease in `default`, so the
 * leader-election Role is granted there too.
 */
async function installRbac(): Promise<void> {
  await kubectl(['create', 'namespace', 'system']);
  await kubectl(['apply', '--server-side', '-k', 'config/rbac']);
  const role = await kubectl.get('role', 'leader-election-role', { namespace: 'system' });
  await kubectl.apply({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'leader-election-role', namespace: 'default' }, rules: role.rules });
  await kubectl(['create', 'rolebinding', 'leader-election-rolebinding', '--role=leader-election-role', '--serviceaccount=system:controller-manager']);
}

beforeAll(async () => {
  [controlPlane] = await Promise.all([startControlPlane({ controllerManager: true }), buildProject(project)]);
  kubectl = kubectlFor(controlPlane, { cwd: project });
  await kubectl(['apply', '--server-side', '-f', 'config/crd/bases']);
  await kubectl(['wait', '--for=condition=Established', 'crd/echos.echo.mmontes.io', 'crd/scheduledechos.echo.mmontes.io']);
  // The replicas run as the ServiceAccount config/rbac sets up: with the permissions a
  // deployment of the operator has, not as cluster admin.
  await installRbac();
  const { kubeconfigPath } = await controlPlane.serviceAccountKubeConfig('system', 'controller-manager');
  replicas = await Promise.all(
    ['replica-a', 'replica-b'].map((name) => startOperator({ dir: project, name, kubeconfigPath, args: ['--leader-elect'] })),
  );
});

afterEach(({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const replica of replicas) console.log(`--- ${replica.name} ---\n${replica.output()}`);
});

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()));
  await controlPlane?.stop();
});

describe('Echo operator with two replicas', () => {
  it('has exactly one leader, the Lease holder, and only the leader reconciles', async () => {
    await expect.poll(() => replicas.filter((replica) => identity(replica)).length, poll).toBe(1);
    leader = replicas.find((replica) => identity(replica))!;
    follower = replicas.find((replica) => replica !== leader)!;
    const [namespace, name] = String(logged(leader, 'acquired the lease: leading')!.lease).split('/');
    lease = { namespace: namespace!, name: name! };

    expect(lease.namespace).toBe('default');
    expect(await holder()).toBe(identity(leader));
    // The follower has read the Lease and knows who leads, but runs no controller.
    await expect.poll(() => follower.logs().some((l) => l.msg === 'new leader' && l.holder === identity(leader)), poll).toBe(true);
    await expect.poll(() => leader.logs().filter((l) => l.msg === 'Starting workers').length, poll).toBe(2);
    expect(logged(follower, 'Starting workers')).toBeUndefined();
    expect(identity(follower)).toBeUndefined();
  });

  it('gives the sample Echo one Job that echoes its message, and the sample ScheduledEcho a CronJob', async () => {
    await kubectl(['apply', '--server-side', '-k', 'config/samples']);
    const echo = await kubectl.get('echo', 'echo-sample');

    await expect.poll(() => kubectl.get('job', 'echo-sample'), poll).toBeDefined();
    const job = (await kubectl.get<Job>('job', 'echo-sample'))!;
    expect(job.spec.template.spec.containers[0]!.command).toEqual(['echo', 'Hello, world']);
    expect(job.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Echo', name: 'echo-sample', uid: echo.metadata.uid, controller: true })]);
    expect(await kubectl(['get', 'echos'])).toMatch(/echo-sample\s+Hello, world/);

    await expect.poll(async () => (await kubectl.get('cronjob', 'scheduledecho-sample'))?.spec?.schedule, poll).toBe('*/5 * * * *');
    const cronJob = await kubectl.get('cronjob', 'scheduledecho-sample');
    expect(cronJob.spec.jobTemplate.spec.template.spec.containers[0].command).toEqual(['echo', 'Hello again']);
    expect(cronJob.metadata.ownerReferences[0]).toMatchObject({ kind: 'ScheduledEcho', name: 'scheduledecho-sample', controller: true });
  });

  it('has the API server reject a schedule that is not cron syntax', async () => {
    const invalid = { apiVersion: 'echo.mmontes.io/v1alpha1', kind: 'ScheduledEcho', metadata: { name: 'whenever', namespace: 'default' }, spec: { message: 'hi', schedule: 'every other tuesday' } };

    await expect(kubectl.apply(invalid)).rejects.toThrow(/spec.schedule: Invalid value.*schedule must be a cron expression/);
    expect(await kubectl.get('scheduledecho', 'whenever')).toBeUndefined();
  });

  it('fails over when the leader is killed: the other replica takes the Lease and keeps reconciling', { timeout: 90_000 }, async () => {
    const sampleJob = (await kubectl.get<Job>('job', 'echo-sample'))!;
    const killedAt = Date.now();
    await leader.kill();

    const killed = identity(leader);
    await expect.poll(async () => ((await holder()) ?? killed) !== killed, { ...poll, timeout: 45_000 }).toBe(true);
    const takeoverMs = Date.now() - killedAt;
    await expect.poll(() => identity(follower), poll).toBeDefined();
    expect(await holder()).toBe(identity(follower));
    console.log(`failover: the follower took the Lease ${(takeoverMs / 1000).toFixed(1)} s after the leader was killed`);

    // The new leader reconciles new objects and changes to old ones...
    await kubectl.apply({ apiVersion: 'echo.mmontes.io/v1alpha1', kind: 'Echo', metadata: { name: 'after-failover', namespace: 'default' }, spec: { message: 'still here' } });
    await expect.poll(() => kubectl.get('job', 'after-failover'), poll).toBeDefined();
    await kubectl(['patch', 'scheduledecho', 'scheduledecho-sample', '--type=merge', '-p', JSON.stringify({ spec: { schedule: '30 2 * * 1-5' } })]);
    await expect.poll(async () => (await kubectl.get('cronjob', 'scheduledecho-sample'))?.spec?.schedule, poll).toBe('30 2 * * 1-5');

    // ...and, having reconciled every Echo when it took over, made no second Job for any.
    const jobs = await echoJobs();
    expect(jobs.map((job) => job.metadata.name).sort()).toEqual(['after-failover', 'echo-sample']);
    expect(jobs.find((job) => job.metadata.name === 'echo-sample')!.metadata.uid).toBe(sampleJob.metadata.uid);
  });

  it('logged no errors: the ServiceAccount of config/rbac may do all the operator does', () => {
    const errors = replicas.flatMap((replica) => replica.logs().filter((line) => line.level === 'error' || line.level === 'fatal'));
    expect(errors).toEqual([]);
  });
});
