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

import { CronExpressionParser } from 'cron-parser';

/** When a CronJob runs: the next run strictly after a time. */
export interface Schedule {
  next(after: Date): Date;
}

// robfig/cron's ParseStandard (what the Go tutorial uses) takes five fields or one of these
// descriptors; cron-parser also takes six fields (seconds first), which Go refuses, so the
// field count is checked here. Times are UTC.
const descriptors: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const durationUnits: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses `schedule` as the Go tutorial's cron library does: five fields
 * (minute hour day-of-month month day-of-week), a descriptor such as `@hourly`, or
 * `@every <duration>`. Throws an Error saying what is wrong.
 *
 * @example
 * parseSchedule('*\/5 * * * *').next(new Date('2026-01-01T00:01:00Z')); // 2026-01-01T00:05:00Z
 */
export function parseSchedule(schedule: string): Schedule {
  const spec = schedule.trim();
  if (spec.startsWith('@every ')) return every(spec.slice('@every '.length).trim());
  const expression = descriptors[spec] ?? spec;
  if (expression.startsWith('@')) throw new Error(`unrecognized descriptor: ${spec}`);
  const fields = expression.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  CronExpressionParser.parse(expression, { tz: 'UTC' }); // throws on a bad field
  return { next: (after) => CronExpressionParser.parse(expression, { currentDate: after, tz: 'UTC' }).next().toDate() };
}

/** `@every 1h30m`: runs that far apart, on whole seconds, at least a second apart (as robfig/cron). */
function every(duration: string): Schedule {
  const parts = [...duration.matchAll(/(\d+(?:\.\d*)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== duration) throw new Error(`failed to parse duration @every ${duration}`);
  const ms = parts.reduce((sum, [, value, unit]) => sum + Number(value) * durationUnits[unit!]!, 0);
  const delay = Math.max(1000, ms - (ms % 1000));
  return { next: (after) => new Date(after.getTime() - (after.getTime() % 1000) + delay) };
}
