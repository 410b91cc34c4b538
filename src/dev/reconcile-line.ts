/**
 * A reconcile record in words: the line `opgen dev` prints per reconcile, and the words its
 * live page shows for triggers and results (the page gets them from here, not a second copy).
 */
import type { ReconcileRecord, ReconcileResult, ReconcileTrigger } from '@opgen/runtime/observe';

const objectName = (namespace: string | undefined, name: string) => (namespace ? `${namespace}/${name}` : name);

/** `12 ms`, `1.4 s`, `5m0s`-like `5 min`: what a person reads at a glance. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${+(ms / 60_000).toFixed(1)} min`;
  return `${+(ms / 3_600_000).toFixed(1)} h`;
}

/** `update ConfigMap default/web-cm`, `requeue after`, `resync`. */
export function describeTrigger(trigger: ReconcileTrigger): string {
  switch (trigger.type) {
    case 'watch':
      return `${trigger.event} ${trigger.kind} ${objectName(trigger.namespace, trigger.name)}`;
    case 'source':
      return `source ${trigger.source}`;
    case 'requeue':
      return trigger.reason === 'error' ? 'retry after error' : trigger.reason === 'after' ? 'requeue after' : 'requeue';
    case 'resync':
      return 'resync';
  }
}

/** The triggers of one reconcile; `queued` when none was noted (queued before anyone listened). */
export function describeTriggers(triggers: readonly ReconcileTrigger[]): string {
  return triggers.length === 0 ? 'queued' : triggers.map(describeTrigger).join(', ');
}

/** `done`, `requeue after 5 min`, `error: <message>`. */
export function describeResult(result: ReconcileResult): string {
  switch (result.type) {
    case 'done':
      return 'done';
    case 'requeue':
      return result.afterMs ? `requeue after ${formatDuration(result.afterMs)}` : 'requeue';
    case 'error':
      return `${result.terminal ? 'terminal error' : 'error'}: ${result.message}`;
    case 'cancelled':
      return 'cancelled';
  }
}

/** `Widget default/sample  create Widget default/sample  12 ms  done  (3 API calls)`. */
export function reconcileLine(record: ReconcileRecord): string {
  const calls = record.calls.length === 1 ? '1 API call' : `${record.calls.length} API calls`;
  return `${record.kind.kind} ${objectName(record.namespace, record.name)}  ← ${describeTriggers(record.triggers)}  ${formatDuration(record.durationMs)}  ${describeResult(record.result)}  (${calls})`;
}
