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

import { conversion, stash, unstash, type Manager, type SpokeConversion } from '@opgen/runtime';
import * as v1alpha1 from '../../api/v1alpha1/bookstore_types.js';
import * as v1alpha2 from '../../api/v1alpha2/bookstore_types.js';

/** What the hub holds and v1alpha1 has no field for: stashed in an annotation on the way down. */
type HubOnly = { env?: v1alpha2.EnvVar[] };

/** The object without its keys whose value is undefined, as JSON would carry it. */
const defined = <T extends object>(object: T): T => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;

/** v1alpha1's flat image fields as v1alpha2's `image`, and the rest of the app or database. */
function splitImage<T extends v1alpha1.BookApp | v1alpha1.BookDB>({ repository, tag, imagePullPolicy, ...rest }: T) {
  return { image: defined<v1alpha2.Image>({ repository, tag, pullPolicy: imagePullPolicy }), rest };
}

/** v1alpha2's `image` as v1alpha1's flat fields. */
const flattenImage = ({ repository, tag, pullPolicy }: v1alpha2.Image) => defined({ repository, tag, imagePullPolicy: pullPolicy });

/**
 * BookStore v1alpha1 ⇄ v1alpha2 (the hub). v1alpha1's flat `repository`, `tag` and
 * `imagePullPolicy` become v1alpha2's `image`; the app's `env`, which v1alpha1 cannot hold,
 * goes into the stash on the way down (fromHub) and comes back on the way up (toHub), so a
 * round trip through v1alpha1 loses nothing. bookstore_conversion.test.ts checks both round
 * trips on random objects.
 */
export const bookStoreV1alpha1Conversion: SpokeConversion<v1alpha1.BookStore, v1alpha2.BookStore> = {
  toHub: (spoke) => {
    const { object, stashed } = unstash<v1alpha1.BookStore, HubOnly>(spoke);
    const app = splitImage(object.spec.bookApp);
    const db = splitImage(object.spec.bookDB);
    return {
      ...object,
      apiVersion: 'blog.example.com/v1alpha2',
      spec: {
        bookApp: defined({ image: app.image, ...app.rest, env: stashed.env }),
        bookDB: { image: db.image, ...db.rest },
      },
    };
  },
  fromHub: (hub) => {
    const { bookApp, bookDB } = hub.spec;
    const { image: appImage, env, ...app } = bookApp;
    const { image: dbImage, ...db } = bookDB;
    const spoke: v1alpha1.BookStore = {
      ...hub,
      apiVersion: 'blog.example.com/v1alpha1',
      spec: { bookApp: { ...flattenImage(appImage), ...app }, bookDB: { ...flattenImage(dbImage), ...db } },
    };
    return stash<v1alpha1.BookStore>(spoke, { env });
  },
};

/**
 * Serves the conversion of BookStore on the manager's webhook server (`/convert`): the API
 * server converts between every version through v1alpha2, the hub.
 */
export function setupBookStoreConversion(mgr: Manager): void {
  conversion(mgr)
    .for(v1alpha2.BookStore)
    .hub(v1alpha2.BookStore)
    .spoke(v1alpha1.BookStore, bookStoreV1alpha1Conversion);
}
