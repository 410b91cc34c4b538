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

import { controller, generationChanged, isInvalid, kinds, setControllerReference, terminal, type Manager, type ReconcileContext, type Request } from '@opgen/runtime';
import { ScheduledEcho } from '../api/v1alpha1/scheduledecho_types.js';
import { echoPodTemplate } from './echo_pod.js';

/**
 * Registers the ScheduledEcho controller. Its CronJob's spec changes reconcile it too, so a
 * hand edit of the CronJob is undone; the CronJob's status changes (a run started) do not.
 */
export function setupScheduledEchoController(mgr: Manager): void {
  controller(mgr).for(ScheduledEcho).owns(kinds.CronJob, { predicates: [generationChanged()] }).reconcile(reconcileScheduledEcho);
}

// +kubebuilder:rbac:groups=echo.mmontes.io,resources=scheduledechos,verbs=get;list;watch
// Owner references that block deletion need this where OwnerReferencesPermissionEnforcement is on.
// +kubebuilder:rbac:groups=echo.mmontes.io,resources=scheduledechos/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch,resources=cronjobs,verbs=get;list;watch;create;update;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

/**
 * Keeps the ScheduledEcho's CronJob, named after it, in line with its spec through
 * server-side apply: one request creates it or changes what differs.
 */
export async function reconcileScheduledEcho(req: Request, ctx: ReconcileContext): Promise<void> {
  const scheduled = await ctx.client.get(ScheduledEcho, req.name, req.namespace);
  if (!scheduled || scheduled.metadata?.deletionTimestamp) return;

  const cronJob: kinds.CronJob = {
    metadata: { name: req.name, namespace: req.namespace },
    spec: {
      schedule: scheduled.spec.schedule,
      concurrencyPolicy: 'Forbid',
      jobTemplate: { spec: { template: echoPodTemplate(scheduled.spec.message) } },
    },
  };
  try {
    await ctx.client.apply(kinds.CronJob, setControllerReference(scheduled, ScheduledEcho, cronJob));
  } catch (error) {
    // The CRD checks the schedule's shape; the API server's CronJob validation has the
    // last word (e.g. minute 75). Retrying cannot help until the spec changes.
    if (!isInvalid(error)) throw error;
    ctx.recorder.event(scheduled, 'Warning', 'CronJobRejected', (error as Error).message);
    throw terminal(error);
  }
}
