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

import { controller, controllerOf, generationChanged, kinds, setControllerReference } from '@opgen/runtime';
import type { Manager, ReconcileContext, Request, Result } from '@opgen/runtime';
import { PodSet } from '../api/v1alpha1/podset_types.js';

/** Registers the PodSet controller: spec changes and events of its Pods reconcile a PodSet. */
export function setupPodSetController(mgr: Manager): void {
  // Its own status writes change no generation, so they start no reconcile.
  controller(mgr).for(PodSet, { predicates: [generationChanged()] }).owns(kinds.Pod).reconcile(reconcilePodSet);
}

// +kubebuilder:rbac:groups=app.example.com,resources=podsets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=app.example.com,resources=podsets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=app.example.com,resources=podsets/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=pods,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

/**
 * Reports the PodSet's pending and running Pods in its status, then creates or deletes one
 * Pod when their number differs from `replicas`. That Pod's event brings the next reconcile,
 * one step at a time until the numbers match.
 */
export async function reconcilePodSet(req: Request, ctx: ReconcileContext): Promise<Result> {
  const podSet = await ctx.client.get(PodSet, req.name, req.namespace);
  if (!podSet) return; // deleted; the garbage collector removes its Pods

  const pods = (await ctx.client.list(kinds.Pod, { namespace: req.namespace, labels: { app: req.name } }))
    .filter((pod) => controllerOf(pod)?.uid === podSet.metadata?.uid && !pod.metadata?.deletionTimestamp)
    .filter((pod) => pod.status?.phase === 'Pending' || pod.status?.phase === 'Running')
    .sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
  const podNames = pods.map((pod) => pod.metadata!.name!);
  const readyReplicas = pods.filter(isReady).length;
  if (podSet.status?.podNames?.join() !== podNames.join() || podSet.status?.readyReplicas !== readyReplicas) {
    await ctx.client.patchStatus(PodSet, podSet, { status: { podNames, readyReplicas } });
  }

  const { replicas } = podSet.spec;
  if (pods.length < replicas) {
    const pod = await ctx.client.create(kinds.Pod, setControllerReference<kinds.Pod>(podSet, PodSet, {
      metadata: { generateName: `${req.name}-pod-`, namespace: req.namespace, labels: { app: req.name } },
      spec: { containers: [{ name: 'busybox', image: 'busybox', command: ['sleep', '3600'] }] },
    }));
    ctx.log.info({ pod: pod.metadata?.name, pods: pods.length + 1, replicas }, 'Scaling up');
    ctx.recorder.event(podSet, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata?.name}`);
  } else if (pods.length > replicas) {
    const pod = pods.find((p) => !isReady(p)) ?? pods[pods.length - 1]!;
    await ctx.client.delete(kinds.Pod, pod);
    ctx.log.info({ pod: pod.metadata?.name, pods: pods.length - 1, replicas }, 'Scaling down');
    ctx.recorder.event(podSet, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata?.name}`);
  }
}

function isReady(pod: kinds.Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
