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

import { controller, generationChanged, isInvalid, kinds, terminal, type Manager } from '@opgen/runtime';
import { ScheduledEcho } from '../api/v1alpha1/scheduledecho_types.js';
import { echoPodTemplate } from './echo_pod.js';

// +kubebuilder:rbac:groups=echo.mmontes.io,resources=scheduledechos,verbs=get;list;watch
// Owner references that block deletion need this where OwnerReferencesPermissionEnforcement is on.
// +kubebuilder:rbac:groups=echo.mmontes.io,resources=scheduledechos/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch,resources=cronjobs,verbs=get;list;watch;create;update;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

/**
 * Registers the ScheduledEcho controller. Its reconcile keeps the ScheduledEcho's CronJob,
 * named after it, in line with its spec through server-side apply: one request creates it
 * or changes what differs. The CronJob's spec changes reconcile it too, so a hand edit of
 * the CronJob is undone; the CronJob's status changes (a run started) do not.
 */
export function setupScheduledEchoController(mgr: Manager): void {
  controller(mgr)
    .for(ScheduledEcho)
    .owns(kinds.CronJob, { predicates: [generationChanged()] })
    .reconcile(async (scheduled, ctx) => {
      if (scheduled.metadata.deletionTimestamp) return;
      const { schedule, message } = scheduled.spec;
      try {
        await ctx.apply(kinds.CronJob, {
          metadata: { name: scheduled.metadata.name },
          spec: { schedule, concurrencyPolicy: 'Forbid', jobTemplate: { spec: { template: echoPodTemplate(message) } } },
        });
      } catch (error) {
        // The CRD checks the schedule's shape; the API server's CronJob validation has the
        // last word (e.g. minute 75). Retrying cannot help until the spec changes.
        if (!isInvalid(error)) throw error;
        ctx.recorder.event(scheduled, 'Warning', 'CronJobRejected', (error as Error).message);
        throw terminal(error);
      }
    });
}
