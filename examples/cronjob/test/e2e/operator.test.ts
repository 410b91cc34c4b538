import { fileURLToPath } from 'node:url';
import { buildProject, consistently, eventually, kubectlFor, startControlPlane, startOperator, type ControlPlane, type Kubectl, type Operator } from '@opgen/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// The operator as a user runs it: built, started as `node dist/main.js` against a real API
// server with kube-controller-manager, whose Job controller turns the CronJob's Jobs into Pods
// and marks them Complete, and whose garbage collector deletes what the CronJob owned. There is
// no scheduler or kubelet: the test ends each Pod as a kubelet would (its status, Succeeded).
// Time is real: `@every 5s` runs often enough for a test. The manager runs as its
// ServiceAccount with the role config/rbac holds, webhooks off (src/webhooks tests them).
const project = fileURLToPath(new URL('../..', import.meta.url));
const poll = { timeout: 45_000, interval: 250 };
const namespace = 'default';

interface Job {
  metadata: { name: string; uid: string; annotations?: Record<string, string>; ownerReferences?: Array<{ kind: string; name: string; uid: string; controller?: boolean }> };
  status?: { conditions?: Array<{ type: string; status: string }> };
}

let controlPlane: ControlPlane | undefined;
let operator: Operator | undefined;
let kubectl: Kubectl;

beforeAll(async () => {
  [controlPlane] = await Promise.all([startControlPlane({ controllerManager: true }), buildProject(project)]);
  kubectl = kubectlFor(controlPlane, { cwd: project });
  await kubectl(['apply', '--server-side', '-k', 'config/crd']);
  // Polled, not `kubectl wait`: that fails while the new CRD has no status yet.
  await eventually(async () => (await kubectl.get('crd', 'cronjobs.batch.tutorial.kubebuilder.io'))?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True'), { timeoutMs: 30_000 });
  await kubectl(['create', 'namespace', 'system']);
  await kubectl(['apply', '--server-side', '-k', 'config/rbac']);
  const manager = await controlPlane.serviceAccountKubeConfig('system', 'controller-manager');
  operator = await startOperator({ dir: project, kubeconfigPath: manager.kubeconfigPath, env: { ENABLE_WEBHOOKS: 'false' } });
}, 180_000);

beforeEach(({ onTestFailed }) => onTestFailed(() => console.log(operator?.output())));

afterAll(async () => {
  await operator?.stop();
  await controlPlane?.stop();
});

const jobsOf = async (name: string) =>
  (await kubectl.list<Job>('jobs', { namespace })).filter((job) => job.metadata.ownerReferences?.some((ref) => ref.kind === 'CronJob' && ref.name === name && ref.controller));
const complete = (job: Job) => job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ?? false;

/** Ends the Pods of `job` as their kubelet would when the container exits 0. */
async function succeed(job: Job): Promise<void> {
  const selector = `batch.kubernetes.io/job-name=${job.metadata.name}`;
  await expect.poll(async () => (await kubectl.list('pods', { namespace, selector })).length, poll).toBeGreaterThan(0);
  for (const pod of await kubectl.list<{ metadata: { name: string } }>('pods', { namespace, selector })) {
    await kubectl(['patch', 'pod', pod.metadata.name, '-n', namespace, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { phase: 'Succeeded' } })]);
  }
}

describe('CronJob operator', { timeout: 150_000 }, () => {
  it('runs the schedule as Jobs the Job controller completes, one at a time (Forbid), keeping one finished Job', async () => {
    await kubectl.apply({
      apiVersion: 'batch.tutorial.kubebuilder.io/v1',
      kind: 'CronJob',
      metadata: { name: 'ticker', namespace },
      spec: {
        schedule: '@every 5s',
        concurrencyPolicy: 'Forbid',
        successfulJobsHistoryLimit: 1,
        jobTemplate: { spec: { template: { spec: { containers: [{ name: 'tick', image: 'busybox:1.37', command: ['date'] }], restartPolicy: 'Never' } } } },
      },
    });
    const cronJob = await kubectl.get('cronjob.batch.tutorial.kubebuilder.io', 'ticker', { namespace });

    // The first run: a Job owned by the CronJob, annotated with its run, listed as active.
    await expect.poll(async () => (await jobsOf('ticker')).length, poll).toBe(1);
    const [first] = await jobsOf('ticker');
    expect(first!.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'CronJob', name: 'ticker', uid: cronJob.metadata.uid, controller: true })]);
    const scheduledAt = first!.metadata.annotations?.['batch.tutorial.kubebuilder.io/scheduled-at'];
    expect(first!.metadata.name).toBe(`ticker-${Date.parse(scheduledAt!) / 1000}`);
    await expect.poll(async () => (await kubectl.get('cronjob.batch.tutorial.kubebuilder.io', 'ticker', { namespace })).status, poll)
      .toMatchObject({ active: [{ kind: 'Job', name: first!.metadata.name }], lastScheduleTime: scheduledAt });

    // Forbid: runs come due while the first Job runs, and none starts.
    await consistently(async () => expect((await jobsOf('ticker')).map((job) => job.metadata.name)).toEqual([first!.metadata.name]), { durationMs: 7_000, intervalMs: 500 });

    // Its Pod succeeds: the Job controller completes it, the next run starts.
    await succeed(first!);
    await expect.poll(async () => complete((await jobsOf('ticker')).find((job) => job.metadata.uid === first!.metadata.uid)!), poll).toBe(true);
    await expect.poll(async () => (await jobsOf('ticker')).filter((job) => !complete(job)).length, poll).toBe(1);
    const second = (await jobsOf('ticker')).find((job) => !complete(job))!;

    // The second completes too: with a history of one, the first is deleted.
    await succeed(second);
    await expect.poll(async () => (await jobsOf('ticker')).map((job) => job.metadata.uid).includes(first!.metadata.uid), poll).toBe(false);
    expect((await jobsOf('ticker')).map((job) => job.metadata.uid)).toContain(second.metadata.uid);
  });

  it('has its Jobs garbage-collected with it', async () => {
    await kubectl(['delete', 'cronjob.batch.tutorial.kubebuilder.io', 'ticker', '-n', namespace]);
    await expect.poll(async () => (await jobsOf('ticker')).length, poll).toBe(0);
  });
});
