/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { fileURLToPath } from 'node:url';
import { controllerOf, createManager, kinds, type Manager } from '@opgen/runtime';
import type { Job } from '@opgen/runtime/api';
import { consistently, installCRDs, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CronJob, type CronJobSpec } from '../api/v1/cronjob_types.js';
import { scheduledTimeAnnotation, setupCronJobController } from './cronjob_controller.js';

// The book's controller tests, on a real API server and etcd with the project's CRDs, and a
// manager running the controller on a clock the tests move. No kube-controller-manager runs
// here: Jobs never start by themselves, and a test finishes one by writing its status, as the
// Job controller would (test/e2e runs real Jobs).
const hour = 3_600_000;
let clock = new Date();
let controlPlane: ControlPlane | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

beforeAll(async () => {
  controlPlane = await startControlPlane();
  await installCRDs(controlPlane.kubeConfig, fileURLToPath(new URL('../../config/crd/bases', import.meta.url)));
  mgr = createManager({ kubeConfig: controlPlane.kubeConfig, handleSignals: false, logLevel: 'warn' });
  setupCronJobController(mgr, { now: () => clock });
  running = mgr.start();
  await mgr.elected();
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

const poll = { timeout: 30_000, interval: 100 };
const namespace = 'default';
const jobTemplate = {
  metadata: { labels: { app: 'hello' }, annotations: { team: 'batch' } },
  spec: { template: { spec: { containers: [{ name: 'hello', image: 'busybox:1.37', command: ['echo', 'hello'] }], restartPolicy: 'Never' as const } } },
};
const api = () => mgr!.client.uncached();

/**
 * An hourly CronJob named `name`, seen by the controller with the clock `hoursLater` hours and
 * a half past the whole hour before its creation (`base`): that many runs are then due.
 */
async function hourlyCronJob(name: string, spec: Partial<CronJobSpec> = {}, hoursLater = 1) {
  clock = new Date(0); // before the CronJob's creation: nothing is due until the time is set below
  const cronJob = await api().create(CronJob, { metadata: { name, namespace }, spec: { schedule: '0 * * * *', jobTemplate, ...spec } });
  const base = Math.floor(Date.parse(cronJob.metadata.creationTimestamp!) / hour) * hour;
  clock = new Date(base + (hoursLater + 0.5) * hour);
  await advance(name, 0);
  return { cronJob, base };
}

/** The Jobs `name` controls, oldest run first. */
async function jobsOf(name: string) {
  const jobs = (await api().list(kinds.Job, { namespace })).filter((job) => controllerOf(job)?.name === name);
  return jobs.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}
const jobNames = async (name: string) => (await jobsOf(name)).map((job) => job.metadata.name);
/** The name the controller gives the Job of the run at `ms`. */
const runName = (name: string, ms: number) => `${name}-${ms / 1000}`;

/** Moves the clock `hours` ahead and makes the controller look (a change to the CronJob). */
async function advance(name: string, hours: number) {
  clock = new Date(clock.getTime() + hours * hour);
  const cronJob = (await api().get(CronJob, name, namespace))!;
  await api().patch(CronJob, cronJob, { metadata: { annotations: { tick: clock.toISOString() } } });
}

/** Writes the status the Job controller writes when a Job's pod succeeded or failed. */
async function finish(job: { metadata: { name: string } }, outcome: 'Complete' | 'Failed', startTime = new Date()) {
  const at = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const now = at(new Date(Math.max(Date.now(), startTime.getTime())));
  const condition = (type: string) => ({ type, status: 'True' as const, lastProbeTime: now, lastTransitionTime: now, reason: type, message: type });
  const status: Job['status'] =
    outcome === 'Complete'
      ? { startTime: at(startTime), completionTime: now, succeeded: 1, conditions: [condition('SuccessCriteriaMet'), condition('Complete')] }
      : { startTime: at(startTime), failed: 1, conditions: [condition('FailureTarget'), condition('Failed')] };
  await api().applyStatus(kinds.Job, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: job.metadata.name, namespace }, status }, { fieldManager: 'job-controller' });
}

describe('CronJob controller', () => {
  it('starts the latest missed run as a Job owned by the CronJob, with the scheduled time annotated, and reports it active', async () => {
    const { cronJob, base } = await hourlyCronJob('hello', {}, 2);
    const run = base + 2 * hour; // runs at +1h and +2h were missed; only the latest starts

    await expect.poll(() => jobNames('hello'), poll).toEqual([runName('hello', run)]);
    const [job] = await jobsOf('hello');
    expect(job!.metadata.annotations).toEqual({ team: 'batch', [scheduledTimeAnnotation]: new Date(run).toISOString().replace('.000Z', 'Z') });
    expect(job!.metadata.labels).toMatchObject({ app: 'hello' });
    expect(job!.spec?.template.spec?.containers[0]?.command).toEqual(['echo', 'hello']);
    expect(job!.metadata.ownerReferences).toEqual([
      { apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', name: 'hello', uid: cronJob.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);

    // The conditions are written after the active list, by writes of their own: wait for both.
    await expect.poll(async () => (await api().get(CronJob, 'hello', namespace))?.status, poll).toMatchObject({
      active: [{ apiVersion: 'batch/v1', kind: 'Job', name: job!.metadata.name, namespace, uid: job!.metadata.uid }],
      lastScheduleTime: new Date(run).toISOString().replace('.000Z', 'Z'),
      conditions: expect.arrayContaining([expect.objectContaining({ type: 'Available', status: 'True', reason: 'JobsActive' })]),
    });

    await finish(job!, 'Complete');
    await expect.poll(async () => (await api().get(CronJob, 'hello', namespace))?.status?.active, poll).toBeUndefined();
  });

  it('skips a missed run past startingDeadlineSeconds, and starts the next one on time', async () => {
    const { base } = await hourlyCronJob('late', { startingDeadlineSeconds: 600 });
    await consistently(async () => expect(await jobNames('late')).toEqual([]), { durationMs: 3_000 });

    await advance('late', 0.55); // 3 minutes after the next run: within the deadline
    await expect.poll(() => jobNames('late'), poll).toEqual([runName('late', base + 2 * hour)]);
  });

  it('Forbid: starts no run while one is active, then the latest missed run once it finished', async () => {
    const { base } = await hourlyCronJob('forbid', { concurrencyPolicy: 'Forbid' });
    const first = base + hour;
    await expect.poll(() => jobNames('forbid'), poll).toEqual([runName('forbid', first)]);

    await advance('forbid', 1);
    await consistently(async () => expect(await jobNames('forbid')).toEqual([runName('forbid', first)]), { durationMs: 3_000 });

    await finish((await jobsOf('forbid'))[0]!, 'Complete');
    await expect.poll(() => jobNames('forbid'), poll).toEqual([runName('forbid', first), runName('forbid', first + hour)]);
  });

  it('Replace: deletes the active Job and starts the new run', async () => {
    const { base } = await hourlyCronJob('replace', { concurrencyPolicy: 'Replace' });
    const first = base + hour;
    await expect.poll(() => jobNames('replace'), poll).toEqual([runName('replace', first)]);

    await advance('replace', 1);
    // The Job is deleted in the background: without a garbage collector here, it stays, marked for deletion.
    await expect.poll(async () => (await jobsOf('replace')).map((job) => [job.metadata.name, job.metadata.deletionTimestamp !== undefined]), poll)
      .toEqual(expect.arrayContaining([[runName('replace', first + hour), false]]));
    await expect.poll(async () => (await jobsOf('replace')).filter((job) => !job.metadata.deletionTimestamp).map((job) => job.metadata.name), poll)
      .toEqual([runName('replace', first + hour)]);
  });

  it('Allow: starts each run, whatever is still active', async () => {
    const { base } = await hourlyCronJob('allow', { concurrencyPolicy: 'Allow' });
    const first = base + hour;
    await expect.poll(() => jobNames('allow'), poll).toEqual([runName('allow', first)]);

    await advance('allow', 1);
    await expect.poll(() => jobNames('allow'), poll).toEqual([runName('allow', first), runName('allow', first + hour)]);
    await expect.poll(async () => (await api().get(CronJob, 'allow', namespace))?.status?.active?.length, poll).toBe(2);
  });

  it('starts nothing while suspended, and the latest missed run once resumed', async () => {
    const { cronJob, base } = await hourlyCronJob('paused', { suspend: true });
    await expect.poll(async () => (await api().get(CronJob, 'paused', namespace))?.status?.conditions, poll)
      .toContainEqual(expect.objectContaining({ type: 'Available', status: 'False', reason: 'Suspended' }));
    await advance('paused', 1);
    await consistently(async () => expect(await jobNames('paused')).toEqual([]), { durationMs: 3_000 });

    await api().patch(CronJob, cronJob, { spec: { suspend: false } });
    await expect.poll(() => jobNames('paused'), poll).toEqual([runName('paused', base + 2 * hour)]);
  });

  it('reports a schedule it cannot parse as Degraded, and starts nothing', async () => {
    await hourlyCronJob('unparseable', { schedule: '* * * *' });
    await expect.poll(async () => (await api().get(CronJob, 'unparseable', namespace))?.status?.conditions, poll).toContainEqual(
      expect.objectContaining({ type: 'Degraded', status: 'True', reason: 'InvalidSchedule', message: 'Failed to parse schedule: expected exactly 5 fields, found 4: [* * * *]' }),
    );
    expect(await jobNames('unparseable')).toEqual([]);
  });

  it('keeps the newest finished Jobs within the history limits, deleting the oldest first', async () => {
    const { cronJob } = await hourlyCronJob('history', { suspend: true, successfulJobsHistoryLimit: 2, failedJobsHistoryLimit: 1 });
    const owner = { apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', name: 'history', uid: cronJob.metadata.uid, controller: true };
    const started = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const runs: Array<[string, 'Complete' | 'Failed', Date]> = [
      ['history-ok-1', 'Complete', started(40)],
      ['history-ok-2', 'Complete', started(30)],
      ['history-ok-3', 'Complete', started(20)],
      ['history-failed-1', 'Failed', started(35)],
      ['history-failed-2', 'Failed', started(25)],
    ];
    for (const [name, outcome, startTime] of runs) {
      const job = await api().create(kinds.Job, { metadata: { name, namespace, ownerReferences: [owner] }, spec: jobTemplate.spec });
      await finish(job, outcome, startTime);
    }
    await advance('history', 0); // look now that all are finished

    await expect.poll(() => jobNames('history'), poll).toEqual(['history-failed-2', 'history-ok-2', 'history-ok-3']);
    await consistently(async () => expect(await jobNames('history')).toEqual(['history-failed-2', 'history-ok-2', 'history-ok-3']), { durationMs: 2_000 });
  });
});
