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

import { controller, controllerOf, isAlreadyExists, kinds, requeue, type Manager } from '@opgen/runtime';
import { Echo } from '../api/v1alpha1/echo_types.js';
import { echoPodTemplate } from './echo_pod.js';

// +kubebuilder:rbac:groups=echo.mmontes.io,resources=echos,verbs=get;list;watch
// Owner references that block deletion need this where OwnerReferencesPermissionEnforcement is on.
// +kubebuilder:rbac:groups=echo.mmontes.io,resources=echos/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

/**
 * Registers the Echo controller: an Echo's changes and its Job's changes reconcile the Echo.
 * The reconcile gives the Echo its one Job. The Job is named after the Echo, so the API
 * server itself refuses a second one: a reconcile repeated after a restart or on a new
 * leader finds it (or gets AlreadyExists when its cache has not seen it yet) and does nothing.
 */
export function setupEchoController(mgr: Manager): void {
  controller(mgr)
    .for(Echo)
    .owns(kinds.Job)
    .reconcile(async (echo, ctx) => {
      const { name, namespace, uid, deletionTimestamp } = echo.metadata;
      if (deletionTimestamp) return;

      const existing = await ctx.client.get(kinds.Job, name, namespace);
      if (existing) {
        if (controllerOf(existing)?.uid === uid) return;
        // A deleted Echo's Job still being collected, or someone else's: look again later.
        ctx.recorder.event(echo, 'Warning', 'JobNameTaken', `Job ${name} exists and is not this Echo's; waiting for it to be deleted`);
        return requeue.after('30s');
      }
      try {
        await ctx.create(kinds.Job, { metadata: { name }, spec: { template: echoPodTemplate(echo.spec.message) } });
        ctx.log.info({ job: name }, 'Created Job');
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    });
}
