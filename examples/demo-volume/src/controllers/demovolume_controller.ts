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

import { controller, controllerOf, isAlreadyExists, kinds, type Manager, type Reconciled, type ReconcileContext } from '@opgen/runtime';
import { DemoVolume } from '../api/v1/demovolume_types.js';

type Volume = Reconciled<DemoVolume, true>;

// +kubebuilder:rbac:groups=storage.civo.com,resources=demovolumes,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=storage.civo.com,resources=demovolumes/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=storage.civo.com,resources=demovolumes/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=persistentvolumeclaims,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

/**
 * Registers the DemoVolume controller: changes to a DemoVolume or to the claim it owns
 * reconcile it. The reconcile ensures the DemoVolume's PersistentVolumeClaim (same name,
 * ReadWriteOnce, `size` GiB, owned by the DemoVolume so it goes when the DemoVolume goes),
 * then reports spec.name and the claim's phase in the status. A claim that exists already
 * is left as it is.
 */
export function setupDemoVolumeController(mgr: Manager): void {
  controller(mgr)
    .for(DemoVolume)
    .owns(kinds.PersistentVolumeClaim)
    .reconcile(async (volume, ctx) => {
      const { name, namespace, uid } = volume.metadata;
      const claim = (await ctx.client.get(kinds.PersistentVolumeClaim, name, namespace)) ?? (await createClaim(volume, ctx));
      if (controllerOf(claim)?.uid !== uid) {
        ctx.log.info({ pvc: name }, 'PersistentVolumeClaim exists and is not this DemoVolume\'s: leaving it alone');
      }

      const phase = claim.status?.phase ?? 'Pending';
      if (volume.status?.name !== volume.spec.name) await ctx.status.apply({ name: volume.spec.name });
      await ctx.status.setCondition({ type: 'Ready', status: phase === 'Bound' ? 'True' : 'False', reason: phase, message: `PersistentVolumeClaim ${name} is ${phase}` });
    });
}

async function createClaim(volume: Volume, ctx: ReconcileContext<DemoVolume, true>): Promise<kinds.PersistentVolumeClaim> {
  const { name, namespace } = volume.metadata;
  const size = `${volume.spec.size}Gi`;
  try {
    const created = await ctx.create(kinds.PersistentVolumeClaim, {
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } },
    });
    ctx.log.info({ pvc: name, size }, 'created PersistentVolumeClaim');
    ctx.recorder.event(volume, 'Normal', 'Created', `Created PersistentVolumeClaim ${name} of ${size}`);
    return created;
  } catch (error) {
    // A claim the cache has not seen yet (created moments ago, or someone else's): read it from the API server.
    const existing = isAlreadyExists(error) && (await ctx.client.uncached().get(kinds.PersistentVolumeClaim, name, namespace));
    if (!existing) throw error;
    return existing;
  }
}
