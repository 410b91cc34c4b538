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

import { controller, controllerOf, createExpectations, generationChanged, isNotFound, kinds, objectKey } from '@opgen/runtime';
import type { Expectations, Manager, Reconciled, ReconcileContext } from '@opgen/runtime';
import { PodSet } from '../api/v1alpha1/podset_types.js';

// +kubebuilder:rbac:groups=app.example.com,resources=podsets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=app.example.com,resources=podsets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=app.example.com,resources=podsets/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=pods,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

/** Registers the PodSet controller: spec changes and events of its Pods reconcile a PodSet. */
export function setupPodSetController(mgr: Manager): void {
  // The Pod informer lowers the expectations as it sees the Pods a reconcile created or
  // deleted; a deleted PodSet's record goes with it (the garbage collector removes its Pods).
  const expectations = createExpectations();
  expectations.observe(mgr.cache.informerFor(kinds.Pod), PodSet);
  mgr.cache.informerFor(PodSet).addHandler({ delete: ({ metadata }) => expectations.forget(objectKey(metadata.namespace, metadata.name)) });
  // Its own status writes change no generation, so they start no reconcile.
  controller(mgr)
    .for(PodSet, { predicates: [generationChanged()] })
    .owns(kinds.Pod)
    .reconcile((podSet, ctx) => reconcilePodSet(podSet, ctx, expectations));
}

/**
 * Reports the PodSet's pending and running Pods in its status, then, as the ReplicaSet
 * controller does, creates all missing Pods or deletes all surplus ones at once. Until the
 * Pod informer has seen those creations and deletions (`expectations`), later reconciles
 * only report status: the cache would still show the old number of Pods, and acting on it
 * would create the same Pods twice.
 */
export async function reconcilePodSet(podSet: Reconciled<PodSet, true>, ctx: ReconcileContext<PodSet, true>, expectations: Expectations): Promise<void> {
  const { name, namespace, uid } = podSet.metadata;
  const key = objectKey(namespace, name);
  // Asked before listing, as the ReplicaSet controller does: once the Pods it waits for are
  // seen, a list taken earlier would still miss them.
  const mayAct = expectations.satisfied(key);
  const pods = (await ctx.client.list(kinds.Pod, { namespace, labels: { app: name } }))
    .filter((pod) => controllerOf(pod)?.uid === uid && !pod.metadata.deletionTimestamp)
    .filter((pod) => pod.status?.phase === 'Pending' || pod.status?.phase === 'Running')
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const podNames = pods.map((pod) => pod.metadata.name);
  const readyReplicas = pods.filter(isReady).length;
  if (podSet.status?.podNames?.join() !== podNames.join() || podSet.status?.readyReplicas !== readyReplicas) {
    await ctx.status.apply({ podNames, readyReplicas });
  }

  // The events of the Pods still expected bring the next reconcile.
  if (!mayAct) return;
  const { replicas } = podSet.spec;
  if (pods.length < replicas) {
    const missing = replicas - pods.length;
    expectations.expectCreations(key, missing);
    const created = await Promise.allSettled(
      Array.from({ length: missing }, () =>
        ctx.create(kinds.Pod, {
          metadata: { generateName: `${name}-pod-`, labels: { app: name } },
          spec: { containers: [{ name: 'busybox', image: 'busybox', command: ['sleep', '3600'] }] },
        }),
      ),
    );
    for (const result of created) {
      if (result.status === 'rejected') {
        expectations.creationObserved(key); // never coming
        continue;
      }
      ctx.recorder.event(podSet, 'Normal', 'SuccessfulCreate', `Created pod: ${result.value.metadata.name}`);
    }
    ctx.log.info({ created: created.filter((r) => r.status === 'fulfilled').length, replicas }, 'Scaling up');
    throwFirstFailure(created);
  } else if (pods.length > replicas) {
    // Pods not ready yet go first.
    const surplus = [...pods].sort((a, b) => Number(isReady(a)) - Number(isReady(b))).slice(0, pods.length - replicas);
    expectations.expectDeletions(key, surplus.map((pod) => objectKey(namespace, pod.metadata.name)));
    const deleted = await Promise.allSettled(surplus.map((pod) => ctx.delete(kinds.Pod, pod)));
    deleted.forEach((result, i) => {
      const pod = surplus[i]!;
      // Gone already, or not deleted: either way no event is owed (observing twice is harmless).
      if (result.status === 'rejected') expectations.deletionObserved(key, objectKey(namespace, pod.metadata.name));
      if (result.status === 'fulfilled' || isNotFound(result.reason)) ctx.recorder.event(podSet, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    });
    ctx.log.info({ deleted: surplus.length, replicas }, 'Scaling down');
    throwFirstFailure(deleted.filter((r) => r.status === 'fulfilled' || !isNotFound(r.reason)));
  }
}

/** Fails the reconcile (so it is retried with backoff) when one of the calls failed. */
function throwFirstFailure(results: PromiseSettledResult<unknown>[]): void {
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

function isReady(pod: kinds.Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
