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

import { describe, expect, it } from 'vitest';
import { parseSchedule } from './schedule.js';

// What robfig/cron's ParseStandard (the Go tutorial's parser) accepts and refuses, and when it
// runs next: always strictly after the time given, in UTC.
const next = (schedule: string, after: string) => parseSchedule(schedule).next(new Date(after)).toISOString();

describe('parseSchedule', () => {
  it('runs five-field schedules at their next match, strictly after the time given', () => {
    expect(next('*/5 * * * *', '2026-01-01T00:01:00Z')).toBe('2026-01-01T00:05:00.000Z');
    expect(next('*/5 * * * *', '2026-01-01T00:05:00Z')).toBe('2026-01-01T00:10:00.000Z');
    expect(next('30 2 * * 1-5', '2026-01-02T03:00:00Z')).toBe('2026-01-05T02:30:00.000Z'); // Friday → Monday
  });

  it('takes the descriptors, @midnight included', () => {
    expect(next('@hourly', '2026-01-01T00:01:00Z')).toBe('2026-01-01T01:00:00.000Z');
    expect(next('@midnight', '2026-01-01T00:01:00Z')).toBe('2026-01-02T00:00:00.000Z');
    expect(next('@weekly', '2026-01-01T00:00:00Z')).toBe('2026-01-04T00:00:00.000Z'); // a Sunday
    expect(next('@yearly', '2026-01-01T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('runs @every <duration> that far apart on whole seconds, at least a second', () => {
    expect(next('@every 90s', '2026-01-01T00:00:00.750Z')).toBe('2026-01-01T00:01:30.000Z');
    expect(next('@every 1h30m', '2026-01-01T00:00:00Z')).toBe('2026-01-01T01:30:00.000Z');
    expect(next('@every 200ms', '2026-01-01T00:00:00Z')).toBe('2026-01-01T00:00:01.000Z');
  });

  it('refuses what Go refuses, saying why', () => {
    expect(() => parseSchedule('* * * *')).toThrow('expected exactly 5 fields, found 4: [* * * *]');
    expect(() => parseSchedule('0 * * * * *')).toThrow('expected exactly 5 fields, found 6: [0 * * * * *]');
    expect(() => parseSchedule('@fortnightly')).toThrow('unrecognized descriptor: @fortnightly');
    expect(() => parseSchedule('@every soon')).toThrow('failed to parse duration @every soon');
    expect(() => parseSchedule('61 * * * *')).toThrow(/61/);
    expect(() => parseSchedule('')).toThrow('expected exactly 5 fields, found 0: []');
  });
});
