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

import { invalid, webhook, type Manager } from '@opgen/runtime';
import type { FieldError } from '@opgen/runtime/webhook';
import { CronJob } from '../../api/v1/cronjob_types.js';
import { parseSchedule } from '../../controllers/schedule.js';

// +kubebuilder:webhook:path=/mutate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=vcronjob-v1.kb.io,admissionReviewVersions=v1

/** What the defaulting webhook fills in when left out, the book's defaults. */
export const defaults = { concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 } as const;

/**
 * A Job is named `<cronjob>-<unix time>`, ten digits and a dash after the CronJob's name, and
 * a Job's name is at most 63 characters (a DNS-1035 label): so at most 52 here, else every
 * Job creation would fail later.
 */
const maxNameLength = 63 - 11;

/**
 * Serves the CronJob webhooks of the book: defaulting fills the concurrency policy, suspend
 * and the history limits; validation refuses a schedule the controller could not parse and a
 * name too long for its Jobs', with one field error each (422, as `apierrors.NewInvalid`).
 */
export function setupCronJobWebhook(mgr: Manager): void {
  webhook(mgr)
    .for(CronJob)
    .default((cronJob) => {
      cronJob.spec.concurrencyPolicy ||= defaults.concurrencyPolicy;
      cronJob.spec.suspend ??= defaults.suspend;
      cronJob.spec.successfulJobsHistoryLimit ??= defaults.successfulJobsHistoryLimit;
      cronJob.spec.failedJobsHistoryLimit ??= defaults.failedJobsHistoryLimit;
    })
    .validate({ create: validateCronJob, update: (_old, cronJob) => validateCronJob(cronJob) });
}

function validateCronJob(cronJob: CronJob): void {
  const errors: FieldError[] = [];
  const name = cronJob.metadata?.name ?? '';
  if (name.length > maxNameLength) errors.push({ field: 'metadata.name', type: 'Invalid', value: name, detail: `must be no more than ${maxNameLength} characters` });
  try {
    parseSchedule(cronJob.spec.schedule);
  } catch (error) {
    errors.push({ field: 'spec.schedule', type: 'Invalid', value: cronJob.spec.schedule, detail: (error as Error).message });
  }
  if (errors.length > 0) throw invalid(errors);
}
