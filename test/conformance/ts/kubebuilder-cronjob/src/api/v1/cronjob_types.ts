/*
Copyright 2026 The Kubernetes authors.

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
// +kubebuilder:docs-gen:collapse=Apache License

// TypeScript twin of the kubebuilder book's CronJob tutorial,
// docs/book/src/cronjob-tutorial/testdata/project/api/v1/cronjob_types.go.

/*
 */

import type { Condition, JobTemplateSpec, List, ObjectMeta, ObjectReference, Time, int32, int64 } from '@opgen/runtime/api';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: json tags are required.  Any new fields you add must have json tags for the fields to be serialized.

// +kubebuilder:docs-gen:collapse=Imports

/*
 First, let's take a look at our spec.  As we discussed before, spec holds
 *desired state*, so any "inputs" to our controller go here.

 Fundamentally a CronJob needs the following pieces:

 - A schedule (the *cron* in CronJob)
 - A template for the Job to run (the
 *job* in CronJob)

 We'll also want a few extras, which will make our users' lives easier:

 - A deadline for starting jobs (if we miss this deadline, we'll just wait till
   the next scheduled time)
 - What to do if multiple jobs would run at once (do we wait? stop the old one? run both?)
 - A way to pause the running of a CronJob, in case something's wrong with it
 - Limits on old job history

 Remember, since we never read our own status, we need to have some other way to
 keep track of whether a job has run.  We can use at least one old job to do
 this.

 We'll use several markers (`// +comment`) to specify additional metadata.  These
 will be used by [controller-tools](https://github.com/kubernetes-sigs/controller-tools) when generating our CRD manifest.
 As we'll see in a bit, controller-tools will also use GoDoc to form descriptions for
 the fields.
*/

// CronJobSpec defines the desired state of CronJob
export interface CronJobSpec {
  // schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.
  // +kubebuilder:validation:MinLength=0
  // +required
  schedule: string;

  // startingDeadlineSeconds defines in seconds for starting the job if it misses scheduled
  // time for any reason.  Missed jobs executions will be counted as failed ones.
  // +optional
  // +kubebuilder:validation:Minimum=0
  startingDeadlineSeconds?: int64;

  // concurrencyPolicy specifies how to treat concurrent executions of a Job.
  // Valid values are:
  // - "Allow" (default): allows CronJobs to run concurrently;
  // - "Forbid": forbids concurrent runs, skipping next run if previous run hasn't finished yet;
  // - "Replace": cancels currently running job and replaces it with a new one
  // +optional
  // +kubebuilder:default:=Allow
  concurrencyPolicy?: ConcurrencyPolicy;

  // suspend tells the controller to suspend subsequent executions, it does
  // not apply to already started executions.  Defaults to false.
  // +optional
  suspend?: boolean;

  // jobTemplate defines the job that will be created when executing a CronJob.
  // +required
  jobTemplate: JobTemplateSpec;

  // successfulJobsHistoryLimit defines the number of successful finished jobs to retain.
  // This is a pointer to distinguish between explicit zero and not specified.
  // +optional
  // +kubebuilder:validation:Minimum=0
  successfulJobsHistoryLimit?: int32;

  // failedJobsHistoryLimit defines the number of failed finished jobs to retain.
  // This is a pointer to distinguish between explicit zero and not specified.
  // +optional
  // +kubebuilder:validation:Minimum=0
  failedJobsHistoryLimit?: int32;
}

/*
 We define a custom type to hold our concurrency policy.  It's actually
 just a string under the hood, but the type gives extra documentation,
 and allows us to attach validation on the type instead of the field,
 making the validation more easily reusable.
*/

// ConcurrencyPolicy describes how the job will be handled.
// Only one of the following concurrent policies may be specified.
// If none of the following policies is specified, the default one
// is AllowConcurrent.
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
export type ConcurrencyPolicy = string;

// AllowConcurrent allows CronJobs to run concurrently.
export const AllowConcurrent: ConcurrencyPolicy = 'Allow';

// ForbidConcurrent forbids concurrent runs, skipping next run if previous
// hasn't finished yet.
export const ForbidConcurrent: ConcurrencyPolicy = 'Forbid';

// ReplaceConcurrent cancels currently running job and replaces it with a new one.
export const ReplaceConcurrent: ConcurrencyPolicy = 'Replace';

/*
 Next, let's design our status, which holds observed state.  It contains any information
 we want users or other controllers to be able to easily obtain.

 We'll keep a list of actively running jobs, as well as the last time that we successfully
 ran our job.  Notice that we use `metav1.Time` instead of `time.Time` to get the stable
 serialization, as mentioned above.
*/

// CronJobStatus defines the observed state of CronJob.
export interface CronJobStatus {
  // INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
  // Important: Run "make" to regenerate code after modifying this file

  // active defines a list of pointers to currently running jobs.
  // +optional
  // +listType=atomic
  // +kubebuilder:validation:MinItems=1
  // +kubebuilder:validation:MaxItems=10
  active?: ObjectReference[];

  // lastScheduleTime defines when was the last time the job was successfully scheduled.
  // +optional
  lastScheduleTime?: Time;

  // For Kubernetes API conventions, see:
  // https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties

  // conditions represent the current state of the CronJob resource.
  // Each condition has a unique type and reflects the status of a specific aspect of the resource.
  //
  // Standard condition types include:
  // - "Available": the resource is fully functional
  // - "Progressing": the resource is being created or updated
  // - "Degraded": the resource failed to reach or maintain its desired state
  //
  // The status of each condition is one of True, False, or Unknown.
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

/*
 Finally, we have the rest of the boilerplate that we've already discussed.
 As previously noted, we don't need to change this, except to mark that
 we want a status subresource, so that we behave like built-in kubernetes types.
*/

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// CronJob is the Schema for the cronjobs API
export interface CronJob {
  /*
   */
  apiVersion?: string;
  kind?: string;

  // metadata is a standard object metadata
  // +optional
  metadata?: ObjectMeta;

  // spec defines the desired state of CronJob
  // +required
  spec: CronJobSpec;

  // status defines the observed state of CronJob
  // +optional
  status?: CronJobStatus;
}

// +kubebuilder:object:root=true

// CronJobList contains a list of CronJob
export interface CronJobList extends List<CronJob> {}

// +kubebuilder:docs-gen:collapse=Root Object Definitions
