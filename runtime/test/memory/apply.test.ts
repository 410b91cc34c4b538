import { describe, expect, it } from 'vitest';
import * as ssa from '../../src/testing/memory/apply/index.js';
import { ApplyConflictError, ApplyBadRequestError, managerFromRequest, type FieldManagerContext } from '../../src/testing/memory/apply/index.js';
import { builtinKindType, crdKindType, type CrdLike } from '../../src/testing/memory/types/index.js';

type Obj = Record<string, any>;
// The tests read deep into the results.
const apply = (input: ssa.ApplyInput) => ssa.apply(input) as { object: Obj; changed: boolean };
const trackUpdate = (input: ssa.UpdateInput): Obj => ssa.trackUpdate(input);
const T1 = '2026-01-01T00:00:01Z';
const T2 = '2026-01-01T00:00:02Z';
const T3 = '2026-01-01T00:00:03Z';

const configMap: FieldManagerContext = { type: builtinKindType('v1', 'ConfigMap')!, apiVersion: 'v1', kind: 'ConfigMap', now: T1 };
const deployment: FieldManagerContext = { type: builtinKindType('apps/v1', 'Deployment')!, apiVersion: 'apps/v1', kind: 'Deployment', now: T1 };

const widgetCrd: CrdLike = {
  spec: {
    versions: [
      {
        name: 'v1',
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer' },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                  },
                  args: { type: 'array', items: { type: 'string' } },
                  tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                  selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
                  extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
              status: { type: 'object', properties: { phase: { type: 'string' }, ready: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  },
};
const widget = (subresource?: 'status'): FieldManagerContext => ({
  type: crdKindType(widgetCrd, 'v1'),
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  now: T1,
  ...(subresource ? { subresource, resetFields: [['spec']] } : { resetFields: [['status']] }),
});

const cm = (data: Record<string, string>): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data });
const w = (spec: Obj, status?: Obj): Obj => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec, ...(status ? { status } : {}) });
/** What the server stores beside the applied fields; apply leaves them as they are. */
const stored = (object: Obj): Obj => ({ ...object, metadata: { ...object.metadata, uid: 'u1', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' } });

describe('server-side apply: ownership per manager', () => {
  it('records each applier as owning exactly what it applied, both values kept', () => {
    const first = apply({ ...configMap, live: undefined, applied: cm({ a: '1' }), manager: 'alice' });
    expect(first.changed).toBe(true);
    const second = apply({ ...configMap, now: T2, live: stored(first.object), applied: cm({ b: '2' }), manager: 'bob' });
    expect(second.object.data).toEqual({ a: '1', b: '2' });
    expect(second.object.metadata.managedFields).toEqual([
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
      { manager: 'bob', operation: 'Apply', apiVersion: 'v1', time: T2, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:b': {} } } },
    ]);
  });

  it('shares a field two appliers set to the same value, and an unchanged re-apply keeps the entry time', () => {
    const first = apply({ ...configMap, live: undefined, applied: cm({ a: '1' }), manager: 'alice' });
    const second = apply({ ...configMap, now: T2, live: stored(first.object), applied: cm({ a: '1' }), manager: 'bob' });
    expect(second.changed).toBe(false);
    // Nothing changed, so bob's entry has no time yet, as the API server writes it.
    expect(second.object.metadata.managedFields).toEqual([
      { manager: 'bob', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
    ]);
  });
});

describe('server-side apply: conflicts and force', () => {
  const base = () => stored(apply({ ...configMap, live: undefined, applied: cm({ x: '1', y: '1' }), manager: 'alice' }).object);

  it('refuses to change a field another applier owns, with the API server message and causes', () => {
    let error: unknown;
    try {
      apply({ ...configMap, now: T2, live: base(), applied: cm({ x: '2' }), manager: 'bob' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApplyConflictError);
    const conflict = error as ApplyConflictError;
    expect(conflict.message).toBe('Apply failed with 1 conflict: conflict with "alice": .data.x');
    expect(conflict.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "alice": .data.x',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.x' }] },
      code: 409,
    });
  });

  it('lists several conflicts by manager', () => {
    const live = stored(apply({ ...configMap, now: T2, live: base(), applied: cm({ z: '1' }), manager: 'carol' }).object);
    expect(() => apply({ ...configMap, now: T3, live, applied: cm({ x: '2', y: '2', z: '2' }), manager: 'bob' })).toThrow(
      'Apply failed with 3 conflicts: conflicts with "alice":\n- .data.x\n- .data.y\nconflicts with "carol":\n- .data.z',
    );
  });

  it('with force takes the field: the value changes and the other manager loses it', () => {
    const result = apply({ ...configMap, now: T2, live: base(), applied: cm({ x: '2' }), manager: 'bob', force: true });
    expect(result.object.data).toEqual({ x: '2', y: '1' });
    expect(result.object.metadata.managedFields).toEqual([
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:y': {} } } },
      { manager: 'bob', operation: 'Apply', apiVersion: 'v1', time: T2, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} } } },
    ]);
  });

  it('conflicts with an updater named with its apiVersion', () => {
    const created = trackUpdate({ ...configMap, live: undefined, updated: cm({ x: '1' }), manager: 'kubectl-create' });
    expect(created.metadata.managedFields).toEqual([
      { manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:x': {} } } },
    ]);
    expect(() => apply({ ...configMap, now: T2, live: stored(created), applied: cm({ x: '2' }), manager: 'bob' })).toThrow(
      'Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .data.x',
    );
  });
});

describe('server-side apply: lists', () => {
  const deploy = (containers: Obj[]): Obj => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'default' },
    spec: { template: { spec: { containers } } },
  });

  it('merges list-map items by key: each applier owns its own item', () => {
    const first = apply({ ...deployment, live: undefined, applied: deploy([{ name: 'app', image: 'app:1' }]), manager: 'alice' });
    const second = apply({ ...deployment, now: T2, live: stored(first.object), applied: deploy([{ name: 'sidecar', image: 'proxy:1' }]), manager: 'bob' });
    expect(second.object.spec.template.spec.containers).toEqual([
      { name: 'app', image: 'app:1' },
      { name: 'sidecar', image: 'proxy:1' },
    ]);
    const fields = (name: string) => ({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { [`k:{"name":"${name}"}`]: { '.': {}, 'f:image': {}, 'f:name': {} } } } } } });
    expect(second.object.metadata.managedFields.map((e: Obj) => [e.manager, e.fieldsV1])).toEqual([
      ['alice', fields('app')],
      ['bob', fields('sidecar')],
    ]);
  });

  it('keys a list by several fields, with the key JSON the API server writes', () => {
    const result = apply({
      ...deployment,
      live: undefined,
      applied: deploy([{ name: 'app', image: 'app:1', ports: [{ containerPort: 80, protocol: 'TCP' }] }]),
      manager: 'alice',
    });
    const item = result.object.metadata.managedFields[0].fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"app"}'];
    expect(item['f:ports']).toEqual({ 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } });
  });

  it('keys an item that leaves out a key field by that field\'s schema default (ServicePort protocol TCP)', () => {
    const service: FieldManagerContext = { type: builtinKindType('v1', 'Service')!, apiVersion: 'v1', kind: 'Service', now: T1 };
    const result = apply({ ...service, live: undefined, applied: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ name: 'http', port: 80 }] } }, manager: 'alice' });
    expect(result.object.metadata.managedFields[0].fieldsV1).toEqual({ 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } });
  });

  it('replaces an atomic list whole and owns it as one field', () => {
    const first = apply({ ...widget(), live: undefined, applied: w({ args: ['a', 'b'] }), manager: 'alice' });
    expect(first.object.metadata.managedFields[0].fieldsV1).toEqual({ 'f:spec': { 'f:args': {} } });
    const second = apply({ ...widget(), now: T2, live: stored(first.object), applied: w({ args: ['c'] }), manager: 'bob', force: true });
    expect(second.object.spec.args).toEqual(['c']);
    expect(second.object.metadata.managedFields).toEqual([
      { manager: 'bob', operation: 'Apply', apiVersion: 'example.com/v1', time: T2, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:args': {} } } },
    ]);
  });

  it('merges a set by value and replaces an atomic map', () => {
    const first = apply({ ...widget(), live: undefined, applied: w({ tags: ['a'], selector: { x: '1', y: '1' } }), manager: 'alice' });
    const second = apply({ ...widget(), now: T2, live: stored(first.object), applied: w({ tags: ['b'], selector: { z: '1' } }), manager: 'bob', force: true });
    expect(second.object.spec).toEqual({ tags: ['a', 'b'], selector: { z: '1' } });
    expect(second.object.metadata.managedFields.map((e: Obj) => [e.manager, e.fieldsV1])).toEqual([
      ['alice', { 'f:spec': { 'f:tags': { 'v:"a"': {} } } }],
      ['bob', { 'f:spec': { 'f:selector': {}, 'f:tags': { 'v:"b"': {} } } }],
    ]);
  });

  it('refuses duplicate keys in an applied list-map', () => {
    expect(() => apply({ ...widget(), live: undefined, applied: w({ ports: [{ name: 'a' }, { name: 'a' }] }), manager: 'alice' })).toThrow(
      'failed to create typed patch object (default/w; example.com/v1, Kind=Widget): .spec.ports: duplicate entries for key [name="a"]',
    );
  });
});

describe('server-side apply: fields a manager stops applying', () => {
  it('removes a field only the applier owned', () => {
    const first = apply({ ...configMap, live: undefined, applied: cm({ x: '1', y: '1' }), manager: 'alice' });
    const second = apply({ ...configMap, now: T2, live: stored(first.object), applied: cm({ x: '1' }), manager: 'alice' });
    expect(second.object.data).toEqual({ x: '1' });
    expect(second.object.metadata.managedFields).toEqual([
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', time: T2, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} } } },
    ]);
  });

  it('keeps a field another manager also owns', () => {
    const first = apply({ ...configMap, live: undefined, applied: cm({ x: '1', y: '1' }), manager: 'alice' });
    const shared = apply({ ...configMap, live: stored(first.object), applied: cm({ y: '1' }), manager: 'bob' });
    const dropped = apply({ ...configMap, now: T2, live: stored(shared.object), applied: cm({ x: '1' }), manager: 'alice' });
    expect(dropped.object.data).toEqual({ x: '1', y: '1' });
  });

  it('removes a list-map item the applier alone owned, keeps the others', () => {
    const both = apply({ ...widget(), live: undefined, applied: w({ ports: [{ name: 'http', port: 80 }, { name: 'metrics', port: 9090 }] }), manager: 'alice' });
    const other = apply({ ...widget(), live: stored(both.object), applied: w({ ports: [{ name: 'grpc', port: 90 }] }), manager: 'bob' });
    const dropped = apply({ ...widget(), now: T2, live: stored(other.object), applied: w({ ports: [{ name: 'http', port: 80 }] }), manager: 'alice' });
    expect(dropped.object.spec.ports).toEqual([
      { name: 'http', port: 80 },
      { name: 'grpc', port: 90 },
    ]);
  });

  it('removes a nested struct field and the fields below it', () => {
    const first = apply({ ...widget(), live: undefined, applied: w({ replicas: 1, extra: { a: { b: 1 } } }), manager: 'alice' });
    // Keys of a preserve-unknown-fields object are map keys, each owned itself (".") beside what is below it.
    expect(first.object.metadata.managedFields[0].fieldsV1).toEqual({ 'f:spec': { 'f:extra': { 'f:a': { '.': {}, 'f:b': {} } }, 'f:replicas': {} } });
    const second = apply({ ...widget(), now: T2, live: stored(first.object), applied: w({ replicas: 1 }), manager: 'alice' });
    expect(second.object.spec).toEqual({ replicas: 1 });
  });
});

describe('managedFields of updates', () => {
  it('an update takes the fields it changes from an applier, without a conflict', () => {
    const applied = stored(apply({ ...configMap, live: undefined, applied: cm({ x: '1', y: '1' }), manager: 'alice' }).object);
    const updated = trackUpdate({ ...configMap, now: T2, live: applied, updated: { ...applied, data: { x: '2', y: '1' } }, manager: 'editor' });
    expect(updated.metadata.managedFields).toEqual([
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:y': {} } } },
      { manager: 'editor', operation: 'Update', apiVersion: 'v1', time: T2, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} } } },
    ]);
    expect(() => apply({ ...configMap, now: T3, live: stored(updated), applied: cm({ x: '1', y: '1' }), manager: 'alice' })).toThrow(
      'Apply failed with 1 conflict: conflict with "editor" using v1: .data.x',
    );
  });

  it('an update that changes nothing leaves the entries as they are', () => {
    const created = stored(trackUpdate({ ...configMap, live: undefined, updated: cm({ x: '1' }), manager: 'creator' }));
    const same = trackUpdate({ ...configMap, now: T2, live: created, updated: { ...created }, manager: 'other' });
    expect(same.metadata.managedFields).toEqual(created.metadata.managedFields);
  });

  it('an update removing a field takes it from its owner', () => {
    const created = stored(trackUpdate({ ...configMap, live: undefined, updated: cm({ x: '1', y: '1' }), manager: 'creator' }));
    const removed = trackUpdate({ ...configMap, now: T2, live: created, updated: { ...created, data: { x: '1' } }, manager: 'editor' });
    expect(removed.metadata.managedFields).toEqual([
      { manager: 'creator', operation: 'Update', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:x': {} } } },
    ]);
  });

  it('a client may reset managedFields with [] or [{}]; an existing object is then not tracked until an apply', () => {
    const created = stored(trackUpdate({ ...configMap, live: undefined, updated: cm({ x: '1' }), manager: 'creator' }));
    for (const reset of [[], [{}]]) {
      const cleared = trackUpdate({ ...configMap, now: T2, live: created, updated: { ...created, metadata: { ...created.metadata, managedFields: reset } }, manager: 'x' });
      expect(cleared.metadata.managedFields).toBeUndefined();
      const untracked = trackUpdate({ ...configMap, now: T2, live: cleared, updated: { ...cleared, data: { x: '2' } }, manager: 'y' });
      expect(untracked.metadata.managedFields).toBeUndefined();
      // The first apply to it finds everything owned by "before-first-apply".
      expect(() => apply({ ...configMap, now: T3, live: untracked, applied: cm({ x: '3' }), manager: 'alice' })).toThrow(
        'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.x',
      );
    }
  });

  it('managedFields the client leaves out are those of the stored object', () => {
    const created = stored(trackUpdate({ ...configMap, live: undefined, updated: cm({ x: '1' }), manager: 'creator' }));
    const { managedFields: _, ...metadata } = created.metadata;
    const updated = trackUpdate({ ...configMap, now: T2, live: created, updated: { ...created, metadata, data: { x: '1', y: '2' } }, manager: 'editor' });
    expect(updated.metadata.managedFields.map((e: Obj) => e.manager)).toEqual(['creator', 'editor']);
  });

  it('keeps at most ten Update entries: the two oldest of eleven merge into ancient-changes', () => {
    let live = stored(trackUpdate({ ...configMap, now: '2026-01-01T00:00:00Z', live: undefined, updated: cm({ k0: '0' }), manager: 'm00' }));
    for (let i = 1; i <= 10; i++) {
      const now = `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`;
      live = stored(trackUpdate({ ...configMap, now, live, updated: { ...live, data: { ...live.data, [`k${i}`]: String(i) } }, manager: `m${String(i).padStart(2, '0')}` }));
    }
    const entries = live.metadata.managedFields;
    expect(entries).toHaveLength(10);
    expect(entries[0]).toEqual({ manager: 'ancient-changes', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:01Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {} } } });
    expect(entries.slice(1).map((e: Obj) => e.manager)).toEqual(['m02', 'm03', 'm04', 'm05', 'm06', 'm07', 'm08', 'm09', 'm10']);
  });

  it('records a custom resource create with the struct fields it adds', () => {
    const created = trackUpdate({ ...widget(), live: undefined, updated: { ...w({ replicas: 2 }), metadata: { name: 'w', labels: { app: 'a' } } }, manager: 'kubectl-create' });
    expect(created.metadata.managedFields[0].fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { '.': {}, 'f:replicas': {} },
    });
  });

  it('records a built-in create against the kind zero value: no "." for struct fields that always exist', () => {
    const created = trackUpdate({
      ...deployment,
      live: undefined,
      updated: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1, strategy: { type: 'Recreate' }, template: { spec: { containers: [{ name: 'a', image: 'i' }] } } } },
      manager: 'm',
    });
    expect(created.metadata.managedFields[0].fieldsV1).toEqual({
      'f:spec': {
        'f:replicas': {},
        'f:strategy': { 'f:type': {} },
        'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      },
    });
  });
});

describe('status subresource', () => {
  it('an apply to /status owns status fields only, recorded with the subresource', () => {
    const main = apply({ ...widget(), live: undefined, applied: w({ replicas: 1 }, { phase: 'ignored' }), manager: 'user' });
    // The main resource's reset fields: status is not owned through it.
    expect(main.object.metadata.managedFields[0].fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    const live = stored({ ...main.object, status: undefined });
    const status = apply({ ...widget('status'), now: T2, live, applied: w({ replicas: 5 }, { phase: 'Ready' }), manager: 'controller' });
    expect(status.object.metadata.managedFields).toEqual([
      { manager: 'user', operation: 'Apply', apiVersion: 'example.com/v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
      { manager: 'controller', operation: 'Apply', apiVersion: 'example.com/v1', time: T2, fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:phase': {} } }, subresource: 'status' },
    ]);
  });

  it('a status update is recorded with the subresource, and a conflict names it', () => {
    const live = stored(apply({ ...widget(), live: undefined, applied: w({ replicas: 1 }), manager: 'user' }).object);
    const updated: Obj = trackUpdate({ ...widget('status'), now: T2, live, updated: { ...live, status: { ready: 1 } }, manager: 'controller' });
    expect(updated.metadata.managedFields[1]).toEqual({
      manager: 'controller',
      operation: 'Update',
      apiVersion: 'example.com/v1',
      time: T2,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { '.': {}, 'f:ready': {} } },
      subresource: 'status',
    });
    expect(() => apply({ ...widget('status'), now: T3, live: stored(updated), applied: w({}, { ready: 2 }), manager: 'other' })).toThrow(
      'Apply failed with 1 conflict: conflict with "controller" with subresource "status" using example.com/v1: .status.ready',
    );
  });
});

describe('bad apply requests', () => {
  it('refuses another kind or version and client-set managedFields', () => {
    expect(() => apply({ ...configMap, live: undefined, applied: { ...cm({}), apiVersion: 'v2' }, manager: 'a' })).toThrow(ApplyBadRequestError);
    expect(() => apply({ ...configMap, live: undefined, applied: { ...cm({}), apiVersion: 'v2' }, manager: 'a' })).toThrow('invalid object type: /v2, Kind=ConfigMap');
    expect(() => apply({ ...configMap, live: undefined, applied: { ...cm({}), metadata: { name: 'c', managedFields: [] } }, manager: 'a' })).toThrow('metadata.managedFields must be nil');
    expect(() => apply({ ...widget(), live: undefined, applied: w({ unknown: 1 }), manager: 'a' })).toThrow('.spec.unknown: field not declared in schema');
  });

  it('names an update manager after the user agent when no fieldManager is given', () => {
    expect(managerFromRequest(undefined, 'kubectl/v1.36.3 (linux/amd64) kubernetes/abc')).toBe('kubectl');
    expect(managerFromRequest('mine', 'kubectl/v1')).toBe('mine');
  });
});
