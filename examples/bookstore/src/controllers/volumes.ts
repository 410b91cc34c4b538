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

import { compareQuantities, isForbidden, isInvalid, kinds, type ConditionUpdate, type Reconciled, type ReconcileContext } from '@opgen/runtime';
import type { BookStore } from '../api/v1alpha1/bookstore_types.js';
import { dbLabels } from './bookstore_objects.js';

const storageOf = (claim: kinds.PersistentVolumeClaim): string => String(claim.spec?.resources?.requests?.storage ?? '0');

/**
 * Brings every database volume to dbSize. A StatefulSet's claim templates cannot change,
 * so the claims it made are patched one by one; the API server lets a claim grow once it
 * is bound and its StorageClass allows expansion. Shrinking is refused, never applied:
 * volumes cannot shrink, and a lower request would only leave the claim asking for less
 * than it holds. Returns the DBSizeApplied condition.
 */
export async function resizeVolumes(store: Reconciled<BookStore, true>, ctx: ReconcileContext<BookStore, true>): Promise<ConditionUpdate> {
  const type = 'DBSizeApplied';
  const wanted = String(store.spec.bookDB.dbSize);
  const claims = await ctx.client.list(kinds.PersistentVolumeClaim, { namespace: store.metadata.namespace, labels: dbLabels(store) });

  const larger = claims.filter((claim) => compareQuantities(storageOf(claim), wanted) > 0);
  if (larger.length > 0) {
    const held = larger.map((claim) => `${claim.metadata.name} (${storageOf(claim)})`).join(', ');
    const message = `dbSize ${wanted} is below what ${held} already request: volumes cannot shrink, so they keep their size`;
    ctx.recorder.event(store, 'Warning', 'ShrinkRefused', message);
    return { type, status: 'False', reason: 'ShrinkRefused', message };
  }

  const unbound: string[] = [];
  for (const claim of claims.filter((c) => compareQuantities(storageOf(c), wanted) < 0)) {
    if (claim.status?.phase !== 'Bound') {
      unbound.push(claim.metadata.name!);
      continue;
    }
    try {
      await ctx.client.patch(kinds.PersistentVolumeClaim, claim, { spec: { resources: { requests: { storage: wanted } } } });
    } catch (error) {
      // Forbidden: the StorageClass does not allow expansion. Retrying cannot help.
      if (!isForbidden(error) && !isInvalid(error)) throw error;
      const message = `${claim.metadata.name}: ${(error as Error).message}`;
      ctx.recorder.event(store, 'Warning', 'ExpansionRejected', message);
      return { type, status: 'False', reason: 'ExpansionRejected', message };
    }
    ctx.recorder.event(store, 'Normal', 'VolumeExpanding', `${claim.metadata.name} now requests ${wanted} (was ${storageOf(claim)})`);
  }
  if (unbound.length > 0) {
    // The claims' watch brings the BookStore back once they are bound.
    return { type, status: 'False', reason: 'WaitingForBinding', message: `${unbound.join(', ')} must be bound before growing to ${wanted}` };
  }
  return { type, status: 'True', reason: 'Applied', message: `every database volume requests ${wanted}` };
}
