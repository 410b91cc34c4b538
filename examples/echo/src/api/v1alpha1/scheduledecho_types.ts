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

import { defineKind, type List, type ObjectMeta } from '@opgen/runtime/api';
import { groupVersion } from './groupversion_info.js';

/** ScheduledEchoSpec is what a ScheduledEcho prints, and when. */
export interface ScheduledEchoSpec {
  /** message is printed by each run, with `echo <message>`. */
  message: string;
  /**
   * schedule is when it runs, in cron syntax: five fields (minute hour day-of-month month
   * day-of-week, e.g. "30 2 * * 1-5"), a macro such as "@hourly", or "@every 90s".
   * @maxLength 100
   * +kubebuilder:validation:XValidation:rule="self.matches('^(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|@every ([0-9.]+(ns|us|ms|s|m|h))+|[0-9a-zA-Z*?/,-]+( +[0-9a-zA-Z*?/,-]+){4})$')",message="schedule must be a cron expression such as \"30 2 * * 1-5\", a macro such as \"@hourly\", or \"@every <duration>\""
   */
  schedule: string;
}

/**
 * ScheduledEcho prints its message on a schedule, through a CronJob of the same name.
 * +kubebuilder:object:root=true
 * +kubebuilder:resource:path=scheduledechos,shortName=sec
 * +kubebuilder:printcolumn:name="Schedule",type=string,JSONPath=".spec.schedule"
 * +kubebuilder:printcolumn:name="Message",type=string,JSONPath=".spec.message"
 * +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"
 * +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 52",message="a ScheduledEcho's name is its CronJob's name: at most 52 characters"
 */
export interface ScheduledEcho {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: ScheduledEchoSpec;
}

/**
 * ScheduledEchoList is a list of ScheduledEcho objects.
 * +kubebuilder:object:root=true
 */
export interface ScheduledEchoList extends List<ScheduledEcho> {}

/** The run-time handle of ScheduledEcho: what the client, the cache and controllers take. */
export const ScheduledEcho = defineKind<ScheduledEcho, true>({ ...groupVersion, kind: 'ScheduledEcho', plural: 'scheduledechos', namespaced: true });
