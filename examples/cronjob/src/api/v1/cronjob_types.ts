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

import { defineKind, type Condition, type JobTemplateSpec, type List, type ObjectMeta, type ObjectReference, type Time, type int32, type int64 } from '@opgen/runtime/api';
import { groupVersion } from './groupversion_info.js';

// The kubebuilder book's CronJob API (cronjob-tutorial/api-design), with its markers and doc
// comments in TypeScript: a schedule, a template for the Job to run, and the extras that make
// users' lives easier (a starting deadline, a concurrency policy, suspend, history limits).

/**
 * ConcurrencyPolicy describes how the job will be handled.
 * Only one of the following concurrent policies may be specified.
 * If none of the following policies is specified, the default one
 * is AllowConcurrent.
 * +kubebuilder:validation:Enum=Allow;Forbid;Replace
 */
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

/** CronJobSpec defines the desired state of CronJob */
export interface CronJobSpec {
  /**
   * schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.
   * +kubebuilder:validation:MinLength=0
   */
  schedule: string;
  /**
   * startingDeadlineSeconds defines in seconds for starting the job if it misses scheduled
   * time for any reason.  Missed jobs executions will be counted as failed ones.
   * +kubebuilder:validation:Minimum=0
   */
  startingDeadlineSeconds?: int64;
  /**
   * concurrencyPolicy specifies how to treat concurrent executions of a Job.
   * Valid values are:
   * - "Allow" (default): allows CronJobs to run concurrently;
   * - "Forbid": forbids concurrent runs, skipping next run if previous run hasn't finished yet;
   * - "Replace": cancels currently running job and replaces it with a new one
   * +kubebuilder:default:=Allow
   */
  concurrencyPolicy?: ConcurrencyPolicy;
  /**
   * suspend tells the controller to suspend subsequent executions, it does
   * not apply to already started executions.  Defaults to false.
   */
  suspend?: boolean;
  /** jobTemplate defines the job that will be created when executing a CronJob. */
  jobTemplate: JobTemplateSpec;
  /**
   * successfulJobsHistoryLimit defines the number of successful finished jobs to retain.
   * This is a pointer to distinguish between explicit zero and not specified.
   * +kubebuilder:validation:Minimum=0
   */
  successfulJobsHistoryLimit?: int32;
  /**
   * failedJobsHistoryLimit defines the number of failed finished jobs to retain.
   * This is a pointer to distinguish between explicit zero and not specified.
   * +kubebuilder:validation:Minimum=0
   */
  failedJobsHistoryLimit?: int32;
}

/** CronJobStatus defines the observed state of CronJob. */
export interface CronJobStatus {
  /**
   * active defines a list of pointers to currently running jobs.
   * +listType=atomic
   * +kubebuilder:validation:MinItems=1
   * +kubebuilder:validation:MaxItems=10
   */
  active?: ObjectReference[];
  /** lastScheduleTime defines when was the last time the job was successfully scheduled. */
  lastScheduleTime?: Time;
  /**
   * conditions represent the current state of the CronJob resource.
   * Each condition has a unique type and reflects the status of a specific aspect of the resource.
   *
   * Standard condition types include:
   * - "Available": the resource is fully functional
   * - "Progressing": the resource is being created or updated
   * - "Degraded": the resource failed to reach or maintain its desired state
   *
   * The status of each condition is one of True, False, or Unknown.
   * +listType=map
   * +listMapKey=type
   */
  conditions?: Condition[];
}

/**
 * CronJob is the Schema for the cronjobs API
 * +kubebuilder:object:root=true
 * +kubebuilder:subresource:status
 * +kubebuilder:storageversion
 */
export interface CronJob {
  apiVersion?: string;
  kind?: string;
  /** metadata is a standard object metadata */
  metadata?: ObjectMeta;
  /** spec defines the desired state of CronJob */
  spec: CronJobSpec;
  /** status defines the observed state of CronJob */
  status?: CronJobStatus;
}

/**
 * CronJobList contains a list of CronJob
 * +kubebuilder:object:root=true
 */
export interface CronJobList extends List<CronJob> {}

/** The run-time handle of CronJob: what the client, the cache and controllers take. */
export const CronJob = defineKind<CronJob, true>({ ...groupVersion, kind: 'CronJob', plural: 'cronjobs', namespaced: true });
