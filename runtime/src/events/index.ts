/**
 * Kubernetes Events (events.k8s.io/v1) about the objects a controller manages.
 *
 * Public surface:
 * - `createEventRecorder(client, { reportingController, reportingInstance?, logger?,
 *   seriesWindowMs?, maxSeries? })` → {@link EventRecorder}:
 *   `event(regarding, 'Normal' | 'Warning', reason, note, action?)` (never throws; repeats
 *   become a series) and `flush()`.
 *
 *
 * Imported as `@opgen/runtime/events`; inside a manager use `mgr.eventRecorder(name)`
 * (or the reconcile context's recorder).
 *
 * @example
 * import { createEventRecorder } from '@opgen/runtime/events';
 *
 * const recorder = createEventRecorder(client, { reportingController: 'backup-job' });
 * recorder.event(volume, 'Warning', 'SnapshotFailed', 'the snapshot class does not exist');
 * await recorder.flush();
 *
 * @module
 */
export { createEventRecorder, type EventRecorder, type EventRecorderOptions, type EventType } from './recorder.js';
