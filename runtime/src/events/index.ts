/**
 * Kubernetes Events (events.k8s.io/v1) about the objects a controller manages.
 *
 * Public surface:
 * - `createEventRecorder(client, { reportingController, reportingInstance?, logger?,
 *   seriesWindowMs?, maxSeries? })` → {@link EventRecorder}:
 *   `event(regarding, 'Normal' | 'Warning', reason, note, action?)` (never throws; repeats
 *   become a series) and `flush()`.
 *
 * @module
 */
export { createEventRecorder, type EventRecorder, type EventRecorderOptions, type EventType } from './recorder.js';
