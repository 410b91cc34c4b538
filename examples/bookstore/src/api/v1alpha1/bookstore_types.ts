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

import { defineKind, type Condition, type int32, type List, type ObjectMeta, type Quantity } from '@opgen/runtime/api';
import { groupVersion } from './groupversion_info.js';

/** When the kubelet pulls a container's image. */
export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

/** How a Service is reached: inside the cluster only, on every node's port, or through a cloud load balancer. */
export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer';

/** BookApp is the bookstore web app: a Deployment behind a Service. */
export interface BookApp {
  /**
   * Image repository of the app, e.g. akash125/pyapp.
   * @minLength 1
   */
  repository: string;
  /** Image tag; changing it rolls the app's Pods. Left empty, the defaulting webhook sets "latest". */
  tag?: string;
  /** @default "IfNotPresent" */
  imagePullPolicy?: PullPolicy;
  /**
   * Number of app Pods.
   * @minimum 0
   * @default 1
   */
  replicas?: int32;
  /**
   * Port of the app's Service.
   * @minimum 1
   * @maximum 65535
   * @default 80
   */
  port?: int32;
  /**
   * Port the app listens on in its container.
   * @minimum 1
   * @maximum 65535
   * @default 3000
   */
  targetPort?: int32;
  /** @default "ClusterIP" */
  serviceType?: ServiceType;
}

/** BookDB is the app's MongoDB: a StatefulSet with one volume per replica, behind a headless Service. */
export interface BookDB {
  /**
   * Image repository of MongoDB, e.g. mongo.
   * @minLength 1
   */
  repository: string;
  /** Image tag; changing it rolls the database's Pods. Left empty, the defaulting webhook sets "latest". */
  tag?: string;
  /** @default "IfNotPresent" */
  imagePullPolicy?: PullPolicy;
  /**
   * Number of MongoDB Pods, each with its own volume.
   * @minimum 0
   * @default 1
   */
  replicas?: int32;
  /**
   * Port MongoDB listens on and its Service exposes.
   * @minimum 1
   * @maximum 65535
   * @default 27017
   */
  port?: int32;
  /**
   * Size of each database volume, e.g. 2Gi. Raising it expands the existing volumes (their
   * StorageClass must allow volume expansion); lowering it is refused, as volumes cannot shrink.
   */
  dbSize: Quantity;
  /**
   * StorageClass of the database volumes; the cluster's default class when left out.
   * Fixed once the BookStore exists.
   * +kubebuilder:validation:XValidation:rule="self == oldSelf",message="storageClassName cannot be changed"
   */
  storageClassName?: string;
}

/** BookStoreSpec is the bookstore app and its database. */
export interface BookStoreSpec {
  bookApp: BookApp;
  bookDB: BookDB;
}

/** BookStoreStatus is the observed state of a BookStore. */
export interface BookStoreStatus {
  /**
   * conditions: "Ready" once the app and database objects match the spec; "DBSizeApplied"
   * once every database volume requests dbSize (False with reason ShrinkRefused when
   * dbSize is below what a volume already has).
   * +listType=map
   * +listMapKey=type
   */
  conditions?: Condition[];
}

/**
 * BookStore runs the bookstore app with its MongoDB.
 * +kubebuilder:object:root=true
 * +kubebuilder:subresource:status
 * +kubebuilder:storageversion
 * +kubebuilder:printcolumn:name="App",type=string,JSONPath=`.spec.bookApp.tag`
 * +kubebuilder:printcolumn:name="DB Size",type=string,JSONPath=`.spec.bookDB.dbSize`
 * +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
 * +kubebuilder:printcolumn:name="DB Size Applied",type=string,JSONPath=`.status.conditions[?(@.type=="DBSizeApplied")].status`
 * +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
 */
export interface BookStore {
  /** The versioned schema of this object: blog.example.com/v1alpha1. */
  apiVersion?: string;
  /** The kind of this object: BookStore. */
  kind?: string;
  metadata?: ObjectMeta;
  spec: BookStoreSpec;
  status?: BookStoreStatus;
}

/**
 * BookStoreList is a list of BookStore objects.
 * +kubebuilder:object:root=true
 */
export interface BookStoreList extends List<BookStore> {}

/** The run-time handle of BookStore: what the client, the cache and controllers take. */
export const BookStore = defineKind<BookStore, true>({ ...groupVersion, kind: 'BookStore', plural: 'bookstores', namespaced: true });
