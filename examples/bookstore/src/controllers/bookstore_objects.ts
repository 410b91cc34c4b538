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

import type { kinds, Reconciled } from '@opgen/runtime';
import type { BookStore } from '../api/v1alpha1/bookstore_types.js';

type Store = Reconciled<BookStore, true>;

// What a BookStore runs, as the objects the controller applies. Fields the CRD defaults
// (ports, replicas, pull policies) are always set on stored BookStores.

/** The claim template's name: the StatefulSet's claims are `data-<name>-mongodb-<ordinal>`. */
const VOLUME = 'data';

export const appName = (store: Store): string => store.metadata.name;
export const dbName = (store: Store): string => `${store.metadata.name}-mongodb`;

function labels(store: Store, component: 'app' | 'mongodb'): Record<string, string> {
  return { 'app.kubernetes.io/part-of': 'bookstore', 'app.kubernetes.io/instance': store.metadata.name, 'app.kubernetes.io/component': component };
}

/** Labels of the database's Pods, and so of the claims the StatefulSet makes for them. */
export const dbLabels = (store: Store): Record<string, string> => labels(store, 'mongodb');

// The defaulting webhook fills empty tags; without it (ENABLE_WEBHOOKS=false) an untagged image
// is what the container runtime pulls as "latest", so the two agree.
const imageOf = (repository: string, tag: string | undefined): string => (tag ? `${repository}:${tag}` : repository);

function metadata(store: Store, name: string, component: 'app' | 'mongodb') {
  return { name, labels: labels(store, component) };
}

export function appDeployment(store: Store): kinds.Deployment {
  const app = store.spec.bookApp;
  return {
    metadata: metadata(store, appName(store), 'app'),
    spec: {
      replicas: app.replicas,
      selector: { matchLabels: labels(store, 'app') },
      template: {
        metadata: { labels: labels(store, 'app') },
        spec: {
          containers: [
            {
              name: 'bookstore',
              image: imageOf(app.repository, app.tag),
              imagePullPolicy: app.imagePullPolicy,
              ports: [{ name: 'http', containerPort: app.targetPort!, protocol: 'TCP' }],
            },
          ],
        },
      },
    },
  };
}

export function appService(store: Store): kinds.Service {
  const app = store.spec.bookApp;
  return {
    metadata: metadata(store, appName(store), 'app'),
    spec: {
      type: app.serviceType,
      selector: labels(store, 'app'),
      ports: [{ name: 'http', port: app.port!, targetPort: 'http', protocol: 'TCP' }],
    },
  };
}

/** Headless: each MongoDB Pod gets a stable DNS name. */
export function dbService(store: Store): kinds.Service {
  return {
    metadata: metadata(store, dbName(store), 'mongodb'),
    spec: {
      clusterIP: 'None',
      selector: dbLabels(store),
      ports: [{ name: 'mongodb', port: store.spec.bookDB.port!, targetPort: 'mongodb', protocol: 'TCP' }],
    },
  };
}

/**
 * The MongoDB StatefulSet. Its claim template cannot change once the StatefulSet exists,
 * so `claim` carries the one it was created with, when it was: dbSize changes reach the
 * claims through resizeVolumes instead.
 */
export function dbStatefulSet(store: Store, claim: { size: string; storageClassName?: string }): kinds.StatefulSet {
  const db = store.spec.bookDB;
  return {
    metadata: metadata(store, dbName(store), 'mongodb'),
    spec: {
      serviceName: dbName(store),
      replicas: db.replicas,
      selector: { matchLabels: dbLabels(store) },
      template: {
        metadata: { labels: dbLabels(store) },
        spec: {
          containers: [
            {
              name: 'mongodb',
              image: imageOf(db.repository, db.tag),
              imagePullPolicy: db.imagePullPolicy,
              ports: [{ name: 'mongodb', containerPort: db.port!, protocol: 'TCP' }],
              volumeMounts: [{ name: VOLUME, mountPath: '/data/db' }],
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: VOLUME },
          spec: { accessModes: ['ReadWriteOnce'], storageClassName: claim.storageClassName, resources: { requests: { storage: claim.size } } },
        },
      ],
    },
  };
}

/** The claim template of a StatefulSet made by dbStatefulSet, if it exists. */
export function claimTemplateOf(statefulSet: kinds.StatefulSet | undefined): { size: string; storageClassName?: string } | undefined {
  const spec = statefulSet?.spec?.volumeClaimTemplates?.find((t) => t.metadata?.name === VOLUME)?.spec;
  const size = spec?.resources?.requests?.storage;
  return size === undefined ? undefined : { size: String(size), storageClassName: spec?.storageClassName };
}
