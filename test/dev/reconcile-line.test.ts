import type { ReconcileRecord } from '@opgen/runtime/observe';
import { describe, expect, it } from 'vitest';
import { operatorLine } from '../../src/dev/operator-log.js';
import { kindOfCall } from '../../src/dev/page/objects.js';
import { reconcileLine } from '../../src/dev/reconcile-line.js';

// What `opgen dev` prints of its operator: a line per reconcile, and of the operator's own
// output only what a person needs to see.

const record = (over: Partial<ReconcileRecord>): ReconcileRecord => ({
  reconcileId: 'id',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  controller: 'widget',
  kind: { group: 'demo.example.com', version: 'v1', kind: 'Widget' },
  namespace: 'default',
  name: 'sample',
  triggers: [{ type: 'watch', event: 'update', kind: 'ConfigMap', namespace: 'default', name: 'sample-cm' }],
  startedAt: 0,
  durationMs: 12.4,
  result: { type: 'done' },
  calls: [],
  ...over,
});

describe('a reconcile line', () => {
  it('names the object, its trigger, how long it took and how it ended', () => {
    expect(reconcileLine(record({}))).toBe('Widget default/sample  ← update ConfigMap default/sample-cm  12 ms  done  (0 API calls)');
    expect(reconcileLine(record({ result: { type: 'requeue', afterMs: 300_000 }, durationMs: 1_520, triggers: [{ type: 'requeue', reason: 'after' }] }))).toBe(
      'Widget default/sample  ← requeue after  1.5 s  requeue after 5 min  (0 API calls)',
    );
    expect(reconcileLine(record({ result: { type: 'error', message: 'quota exceeded', terminal: false }, triggers: [] }))).toBe(
      'Widget default/sample  ← queued  12 ms  error: quota exceeded  (0 API calls)',
    );
  });
});

describe("the operator's output", () => {
  it('leaves out JSON lines below warn and reconcile errors (their reconcile line says them), keeps the rest', () => {
    expect(operatorLine('{"level":30,"msg":"Starting workers"}')).toBeUndefined();
    expect(operatorLine('{"level":"info","pid":1,"msg":"Caches synced"}')).toBeUndefined();
    expect(operatorLine('{"level":"error","msg":"Reconciler error","reconcileID":"x"}')).toBeUndefined();
    expect(operatorLine('{"level":"warn","msg":"Lease renewal slow"}')).toBe('operator warn Lease renewal slow');
    expect(operatorLine('{"level":50,"msg":"Reconciler error","reconcileID":"x","err":{"message":"boom"}}')).toBeUndefined();
    expect(operatorLine('{"level":40,"msg":"Watch failed","controller":"widget","err":{"message":"410 Gone"}}')).toBe('operator warn (widget) Watch failed: 410 Gone');
    expect(operatorLine('hello from console.log')).toBe('hello from console.log');
    expect(operatorLine('{not json')).toBe('{not json');
  });
});

describe('the kind a call wrote', () => {
  it('is read from its path, namespaced when the path names a namespace', () => {
    const kindOf = (kind: string, path: string) => kindOfCall({ kind, path });
    expect(kindOf('ConfigMap', '/api/v1/namespaces/a/configmaps/b')).toEqual({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true });
    expect(kindOf('Deployment', '/apis/apps/v1/namespaces/a/deployments/b/status')).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true });
    expect(kindOf('ClusterWidget', '/apis/demo.example.com/v1/clusterwidgets/x')).toEqual({ group: 'demo.example.com', version: 'v1', kind: 'ClusterWidget', plural: 'clusterwidgets', namespaced: false });
    expect(kindOf('Namespace', '/api/v1/namespaces/a')).toEqual({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false });
    expect(kindOf('ConfigMap', '/api/v1/namespaces/a/configmaps')).toEqual({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true });
  });
});
