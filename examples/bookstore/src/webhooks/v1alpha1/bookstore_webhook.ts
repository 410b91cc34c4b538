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

import { compareQuantities, deny, webhook, type Manager } from '@opgen/runtime';
import { BookStore } from '../../api/v1alpha1/bookstore_types.js';

// +kubebuilder:webhook:path=/mutate-blog-example-com-v1alpha1-bookstore,mutating=true,failurePolicy=fail,sideEffects=None,groups=blog.example.com,resources=bookstores,verbs=create;update,versions=v1alpha1,name=mbookstore-v1alpha1.kb.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-blog-example-com-v1alpha1-bookstore,mutating=false,failurePolicy=fail,sideEffects=None,groups=blog.example.com,resources=bookstores,verbs=create;update,versions=v1alpha1,name=vbookstore-v1alpha1.kb.io,admissionReviewVersions=v1

/** The image tag the defaulting webhook gives the app and the database when theirs is left empty. */
export const defaultTag = 'latest';

/**
 * Serves the webhooks of BookStore (blog.example.com/v1alpha1) on the manager's webhook server:
 * empty image tags of `bookApp` and `bookDB` become "latest", stored so that `kubectl get`
 * shows what runs; an update that lowers `bookDB.dbSize` is refused before it is stored, as
 * volumes cannot shrink. The controller still refuses a smaller dbSize on its own (defence in
 * depth: the webhook may be off, or the object may have been stored before it existed).
 */
export function setupBookStoreWebhook(mgr: Manager): void {
  webhook(mgr)
    .for(BookStore)
    .default((bookStore) => {
      // The schema requires bookApp and bookDB; the API server refuses their absence after us.
      const { bookApp, bookDB } = bookStore.spec ?? {};
      if (bookApp && !bookApp.tag) bookApp.tag = defaultTag;
      if (bookDB && !bookDB.tag) bookDB.tag = defaultTag;
    })
    .validate({
      update: (oldBookStore, bookStore) => {
        const before = oldBookStore.spec?.bookDB?.dbSize;
        const after = bookStore.spec?.bookDB?.dbSize;
        if (before !== undefined && after !== undefined && compareQuantities(after, before) < 0) {
          throw deny(`spec.bookDB.dbSize cannot shrink from ${String(before)} to ${String(after)}: database volumes cannot shrink`);
        }
      },
    });
}
