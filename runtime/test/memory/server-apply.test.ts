import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { api, statusOf, widgetCRD } from './support.js';

let memory: MemoryCluster;
afterEach(() => memory?.close());

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const CM = '/api/v1/namespaces/default/configmaps';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

async function start() {
  memory = await createMemoryCluster({ crds: [widgetCRD()] });
  return api(memory.transport);
}

const fieldsOf = (object: Record<string, any>) => object.metadata.managedFields.map((e: Record<string, any>) => [e.manager, e.operation, e.subresource, e.fieldsV1]);

describe('PATCH application/apply-patch+yaml on the memory cluster', () => {
  test('a uid in an apply names an object that must exist: none there is a 409, as kube-apiserver answers', async () => {
    const a = await start();
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u', uid: '11111111-1111-1111-1111-111111111111' }, data: { x: '1' } };
    const status = await statusOf(a.patch(`${CM}/u`, body, APPLY, { fieldManager: 'alice', force: 'true' }));
    expect(status.code).toBe(409);
    expect(status.message).toBe('Operation cannot be fulfilled on configmaps "u": uid mismatch: the provided object specified uid 11111111-1111-1111-1111-111111111111, and no existing object was found');
  });

  test('creates the object from a YAML body, then merges a second applier and answers 409 with causes', async () => {
    const a = await start();
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  x: "1"\n';
    const created = await a.patch(`${CM}/c`, yaml, APPLY, { fieldManager: 'alice' });
    expect(created.data).toEqual({ x: '1' });
    expect(created.metadata.managedFields).toEqual([
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} } } },
    ]);
    const conflict = await statusOf(a.patch(`${CM}/c`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { x: '2' } }, APPLY, { fieldManager: 'bob' }));
    expect(conflict).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "alice": .data.x',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.x' }] },
      code: 409,
    });
    const forced = await a.patch(`${CM}/c`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { x: '2' } }, APPLY, { fieldManager: 'bob', force: 'true' });
    expect(forced.data).toEqual({ x: '2' });
    expect(fieldsOf(forced)).toEqual([['bob', 'Apply', undefined, { 'f:data': { 'f:x': {} } }]]);
    expect((await a.get(`${CM}/c`)).metadata.managedFields).toEqual(forced.metadata.managedFields);
  });

  test('requires fieldManager (422 PatchOptions) and refuses another kind and client managedFields (400)', async () => {
    const a = await start();
    const missing = await statusOf(a.patch(`${CM}/c`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, APPLY));
    expect([missing.code, missing.message]).toEqual([422, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch']);
    const kind = await statusOf(a.patch(`${CM}/c`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'c' } }, APPLY, { fieldManager: 'm' }));
    expect([kind.code, kind.message]).toEqual([400, 'invalid object type: /v1, Kind=Secret']);
    const managed = await statusOf(a.patch(`${CM}/c`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: [] } }, APPLY, { fieldManager: 'm' }));
    expect([managed.code, managed.message]).toEqual([400, 'metadata.managedFields must be nil']);
  });

  test('creates, updates and merge patches record Update entries; an update takes a field from an applier', async () => {
    const a = await start();
    const created = await a.post(CM, { metadata: { name: 'c' }, data: { x: '1' } }, { fieldManager: 'creator' });
    expect(fieldsOf(created)).toEqual([['creator', 'Update', undefined, { 'f:data': { '.': {}, 'f:x': {} } }]]);
    const applied = await a.patch(`${CM}/c`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { y: '1' } }, APPLY, { fieldManager: 'alice' });
    const patched = await a.patch(`${CM}/c`, { data: { y: '2' } }, MERGE, { fieldManager: 'editor' });
    expect(fieldsOf(patched)).toEqual(
      expect.arrayContaining([
        ['creator', 'Update', undefined, { 'f:data': { '.': {}, 'f:x': {} } }],
        ['editor', 'Update', undefined, { 'f:data': { 'f:y': {} } }],
      ]),
    );
    expect(patched.metadata.managedFields).toHaveLength(2);
    expect(applied.metadata.managedFields).toHaveLength(2);
    // Without ?fieldManager= the entry is named after the runtime's user agent.
    const unnamed = await a.put(`${CM}/c`, { ...patched, data: { ...patched.data, z: '1' } });
    expect(unnamed.metadata.managedFields.map((e: { manager: string }) => e.manager)).toContain('opgen-runtime');
  });

  test('applies to /status own status only, recorded with the subresource; the main resource does not own status', async () => {
    const a = await start();
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 }, status: { phase: 'dropped' } };
    const main = await a.patch(`${WIDGETS}/w`, widget, APPLY, { fieldManager: 'user' });
    expect(main.status).toBeUndefined();
    // The CRD's schema preserves unknown fields at the root: spec is a key of a deduced map, owned itself too.
    expect(fieldsOf(main)).toEqual([['user', 'Apply', undefined, { 'f:spec': { '.': {}, 'f:size': {} } }]]);
    const status = await a.patch(`${WIDGETS}/w/status`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, status: { phase: 'Ready' } }, APPLY, { fieldManager: 'ctrl' });
    expect(status.status).toEqual({ phase: 'Ready' });
    // Entries of one operation within one second are ordered by manager.
    expect(fieldsOf(status)).toEqual([
      ['ctrl', 'Apply', 'status', { 'f:status': { '.': {}, 'f:phase': {} } }],
      ['user', 'Apply', undefined, { 'f:spec': { '.': {}, 'f:size': {} } }],
    ]);
  });

  test('an applier that stops applying a field removes it', async () => {
    const a = await start();
    const widget = (spec: object) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });
    await a.patch(`${WIDGETS}/w`, widget({ size: 1, color: 'red' }), APPLY, { fieldManager: 'user' });
    const second = await a.patch(`${WIDGETS}/w`, widget({ size: 1 }), APPLY, { fieldManager: 'user' });
    expect(second.spec).toEqual({ size: 1 });
  });
});
