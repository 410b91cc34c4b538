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

import { controller, controllerOf, isAlreadyExists, kinds, requeue, type Manager, type ReconcileContext, type Reconciled } from '@opgen/runtime';
import type { Job, ObjectReference } from '@opgen/runtime/api';
import { CronJob } from '../api/v1/cronjob_types.js';
import { parseSchedule } from './schedule.js';

// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch,resources=jobs/status,verbs=get

/** The annotation each Job carries with the run it was created for (RFC 3339), from which status.lastScheduleTime is rebuilt. */
export const scheduledTimeAnnotation = 'batch.tutorial.kubebuilder.io/scheduled-at';

/** Options of {@link setupCronJobController}. */
export interface CronJobControllerOptions {
  /** The clock; tests pass their own to jump in time. Default: the system's. */
  now?: () => Date;
}

type ChildJob = Reconciled<Job>;

/**
 * Registers the CronJob controller, the kubebuilder book's: each reconcile finds the
 * CronJob's Jobs through an index on their controller owner, reports the active ones and the
 * last run in the status, deletes finished Jobs beyond the history limits (oldest first),
 * and, unless suspended, starts the latest missed run that is still within
 * startingDeadlineSeconds, as the concurrency policy allows. It then asks to be reconciled
 * again at the next run.
 */
export function setupCronJobController(mgr: Manager, { now = () => new Date() }: CronJobControllerOptions = {}): void {
  controller(mgr)
    .for(CronJob)
    .owns(kinds.Job, { indexes: { owner: cronJobOwning } })
    .reconcile(async (cronJob, ctx) => {
      const { name, namespace } = cronJob.metadata;
      const jobs = await ctx.client.list(kinds.Job, { namespace, index: { owner: name } });
      const active = jobs.filter((job) => finished(job) === undefined);
      const successful = jobs.filter((job) => finished(job) === 'Complete');
      const failed = jobs.filter((job) => finished(job) === 'Failed');
      const lastRun = jobs.map(scheduledTime).filter((t) => t !== undefined).sort((a, b) => b.getTime() - a.getTime())[0];
      ctx.log.debug({ active: active.length, successful: successful.length, failed: failed.length }, 'job count');

      await ctx.status.apply({ active: active.length > 0 ? active.map(referenceTo) : undefined, lastScheduleTime: lastRun && rfc3339(lastRun) });
      await reportConditions(cronJob, ctx, { active: active.length, failed: failed.length });

      // Best effort: a Job that cannot be deleted now is logged, and tried again next time.
      for (const [finishedJobs, limit] of [[failed, cronJob.spec.failedJobsHistoryLimit], [successful, cronJob.spec.successfulJobsHistoryLimit]] as const) {
        if (limit === undefined) continue;
        for (const job of oldestFirst(finishedJobs).slice(0, Math.max(0, finishedJobs.length - limit))) {
          await ctx.delete(kinds.Job, job, { propagationPolicy: 'Background' }).then(
            () => ctx.log.info({ job: job.metadata.name }, 'deleted old finished job'),
            (err: unknown) => ctx.log.error({ err, job: job.metadata.name }, 'unable to delete old finished job'),
          );
        }
      }

      if (cronJob.spec.suspend) {
        ctx.log.debug('cronjob suspended, skipping');
        return;
      }

      const time = now();
      let runs: { missed?: Date; next: Date };
      try {
        runs = nextRuns(cronJob, lastRun, time);
      } catch (error) {
        // Nothing to retry until the CronJob changes: say so on it, and wait for that change.
        const message = `Failed to parse schedule: ${(error as Error).message}`;
        ctx.log.warn({ schedule: cronJob.spec.schedule }, message);
        await ctx.status.setCondition({ type: 'Degraded', status: 'True', reason: 'InvalidSchedule', message });
        return;
      }
      const untilNext = requeue.after(runs.next.getTime() - time.getTime());
      const missed = runs.missed;
      if (!missed) {
        ctx.log.debug({ next: runs.next }, 'no upcoming scheduled times, sleeping until next');
        return untilNext;
      }
      const policy = cronJob.spec.concurrencyPolicy ?? 'Allow';
      if (policy === 'Forbid' && active.length > 0) {
        ctx.log.debug({ active: active.length }, 'concurrency policy blocks concurrent runs, skipping');
        return untilNext;
      }
      if (policy === 'Replace') {
        for (const job of active) await ctx.delete(kinds.Job, job, { propagationPolicy: 'Background' });
      }

      // Named after the run, so a run is never started twice, even from a stale cache.
      const { metadata: template, spec } = cronJob.spec.jobTemplate;
      const job = {
        metadata: {
          name: `${name}-${Math.floor(missed.getTime() / 1000)}`,
          labels: { ...template?.labels },
          annotations: { ...template?.annotations, [scheduledTimeAnnotation]: rfc3339(missed) },
        },
        spec, // ctx.create writes a copy
      };
      try {
        await ctx.create(kinds.Job, job);
        ctx.log.info({ job: job.metadata.name, run: missed }, 'created Job for CronJob run');
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
      return untilNext;
    });
}

/** The index of Jobs by owner: the name of the CronJob controlling the Job, if one does. */
function cronJobOwning(job: ChildJob): string[] {
  const owner = controllerOf(job);
  return owner?.kind === 'CronJob' && owner.apiVersion === 'batch.tutorial.kubebuilder.io/v1' ? [owner.name] : [];
}

/** The latest run missed since the last one (or the CronJob's creation) and the deadline, if any, and the next one after `now`. */
function nextRuns(cronJob: Reconciled<CronJob>, lastRun: Date | undefined, now: Date): { missed?: Date; next: Date } {
  const schedule = parseSchedule(cronJob.spec.schedule);
  let earliest = lastRun ?? new Date(cronJob.metadata.creationTimestamp);
  const deadline = cronJob.spec.startingDeadlineSeconds;
  // A run before the starting deadline is too late to start: the search begins there, so
  // such runs are skipped (the book's later "too late" check can then never hold).
  if (deadline !== undefined && now.getTime() - deadline * 1000 > earliest.getTime()) earliest = new Date(now.getTime() - deadline * 1000);
  if (earliest > now) return { next: schedule.next(now) };
  let missed: Date | undefined;
  let starts = 0;
  for (let t = schedule.next(earliest); t <= now; t = schedule.next(t)) {
    missed = t;
    // Years of missed runs (a clock skew, a long outage) are a mistake, not work to catch up on.
    if (++starts > 100) throw new Error('Too many missed start times (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew.');
  }
  return { missed, next: schedule.next(now) };
}

/** The Job's finished condition that is True, if any: `Complete` or `Failed`. */
function finished(job: ChildJob): 'Complete' | 'Failed' | undefined {
  return job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.type as 'Complete' | 'Failed' | undefined;
}

function scheduledTime(job: ChildJob): Date | undefined {
  const raw = job.metadata.annotations?.[scheduledTimeAnnotation];
  const time = raw ? new Date(raw) : undefined;
  return time && !Number.isNaN(time.getTime()) ? time : undefined;
}

/** Jobs that never started first, then by start time. */
function oldestFirst(jobs: readonly ChildJob[]): ChildJob[] {
  const start = (job: ChildJob) => (job.status?.startTime ? Date.parse(job.status.startTime) : -Infinity);
  return [...jobs].sort((a, b) => start(a) - start(b));
}

/** Go's time.RFC3339: whole seconds, as the API server writes times. */
function rfc3339(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function referenceTo(job: ChildJob): ObjectReference {
  const { name, namespace, uid, resourceVersion } = job.metadata;
  return { apiVersion: 'batch/v1', kind: 'Job', name, namespace, uid, resourceVersion };
}

/** The book's Available, Progressing and Degraded conditions, from the Jobs seen. */
async function reportConditions(cronJob: Reconciled<CronJob>, ctx: ReconcileContext<CronJob, true>, jobs: { active: number; failed: number }): Promise<void> {
  if (cronJob.spec.suspend) {
    await ctx.status.setCondition({ type: 'Available', status: 'False', reason: 'Suspended', message: 'CronJob is suspended' });
  } else if (jobs.failed > 0) {
    await ctx.status.setCondition({ type: 'Degraded', status: 'True', reason: 'JobsFailed', message: `${jobs.failed} job(s) have failed` });
    await ctx.status.setCondition({ type: 'Available', status: 'False', reason: 'JobsFailed', message: `${jobs.failed} job(s) have failed` });
  } else if (jobs.active > 0) {
    await ctx.status.setCondition({ type: 'Progressing', status: 'True', reason: 'JobsActive', message: `${jobs.active} job(s) are currently active` });
    await ctx.status.setCondition({ type: 'Available', status: 'True', reason: 'JobsActive', message: `CronJob is progressing with ${jobs.active} active job(s)` });
  } else {
    await ctx.status.setCondition({ type: 'Available', status: 'True', reason: 'AllJobsCompleted', message: 'All jobs have completed successfully' });
    await ctx.status.setCondition({ type: 'Progressing', status: 'False', reason: 'NoJobsActive', message: 'No jobs are currently active' });
  }
}
