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

import { controller, generationChanged, kinds, labelSelector, type Manager } from '@opgen/runtime';
import { BookStore } from '../api/v1alpha1/bookstore_types.js';
import { appDeployment, appService, claimTemplateOf, dbName, dbService, dbStatefulSet } from './bookstore_objects.js';
import { resizeVolumes } from './volumes.js';

// +kubebuilder:rbac:groups=blog.example.com,resources=bookstores,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=blog.example.com,resources=bookstores/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=blog.example.com,resources=bookstores/finalizers,verbs=update
// +kubebuilder:rbac:groups=apps,resources=deployments;statefulsets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=core,resources=services,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=core,resources=persistentvolumeclaims,verbs=get;list;watch;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

/**
 * Registers the BookStore controller. It owns the app's Deployment and Service and the
 * database's StatefulSet and Service; the database's claims belong to the StatefulSet, so
 * they are watched by label: a claim that gets bound brings its BookStore back to grow it.
 * The reconcile server-side applies the four objects the spec describes, each owned by the
 * BookStore (so the garbage collector deletes them with it), then grows the database
 * volumes to dbSize.
 */
export function setupBookStoreController(mgr: Manager): void {
  controller(mgr)
    .for(BookStore, { predicates: [generationChanged()] })
    .owns(kinds.Deployment)
    .owns(kinds.Service)
    .owns(kinds.StatefulSet)
    .watches(
      kinds.PersistentVolumeClaim,
      (claim) => {
        const name = claim.metadata.labels?.['app.kubernetes.io/instance'];
        return name ? [{ namespace: claim.metadata.namespace, name }] : [];
      },
      { predicates: [labelSelector({ 'app.kubernetes.io/part-of': 'bookstore', 'app.kubernetes.io/component': 'mongodb' })] },
    )
    .reconcile(async (store, ctx) => {
      const existing = await ctx.client.get(kinds.StatefulSet, dbName(store), store.metadata.namespace);
      const claim = claimTemplateOf(existing) ?? { size: String(store.spec.bookDB.dbSize), storageClassName: store.spec.bookDB.storageClassName };
      await ctx.apply(kinds.Deployment, appDeployment(store));
      await ctx.apply(kinds.Service, appService(store));
      await ctx.apply(kinds.Service, dbService(store));
      await ctx.apply(kinds.StatefulSet, dbStatefulSet(store, claim));
      const sized = await resizeVolumes(store, ctx);

      await ctx.status.setCondition({ type: 'Ready', status: 'True', reason: 'Applied', message: 'the app and its database match the spec' });
      await ctx.status.setCondition(sized);
    });
}
