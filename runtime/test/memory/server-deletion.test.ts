import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { api, statusOf, widgetCRD } from './support.js';

let memory: MemoryCluster;
afterEach(() => memory?.close());

const CM = '/api/v1/namespaces/default/configmaps';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

async function start() {
  memory = await createMemoryCluster({ crds: [widgetCRD()] });
  return api(memory.transport);
}

const owner = (o: any, block?: boolean) => ({ apiVersion: 'example.com/v1', kind: 'Widget', name: o.metadata.name, uid: o.metadata.uid, ...(block === undefined ? {} : { blockOwnerDeletion: block }) });
const exists = async (a: ReturnType<typeof api>, path: string) => {
  try {
    return await a.get(path);
  } catch {
    return undefined;
  }
};

describe('delete', () => {
  test('a delete that removes the object answers a Success Status naming it; a missing one is 404', async () => {
    const a = await start();
    const cm = await a.post(CM, { metadata: { name: 'a' } });
    expect(await a.delete(`${CM}/a`)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'a', kind: 'configmaps', uid: cm.metadata.uid } });
    await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
    expect((await a.delete(`${WIDGETS}/w`)).details).toMatchObject({ name: 'w', group: 'example.com', kind: 'widgets' });
    expect(await statusOf(a.delete(`${CM}/a`))).toMatchObject({ code: 404, message: 'configmaps "a" not found' });
  });

  test('finalizers hold the object with deletionTimestamp; no new finalizer may be added; removing the last one deletes it', async () => {
    const a = await start();
    await a.post(CM, { metadata: { name: 'a', finalizers: ['example.com/hold'] } });
    const marked = await a.delete(`${CM}/a`);
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(0);
    const adding = await statusOf(a.put(`${CM}/a`, { ...marked, metadata: { ...marked.metadata, finalizers: ['example.com/hold', 'example.com/more'] } }));
    expect(adding).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(adding.message).toContain('metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}');
    await a.patch(`${CM}/a`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect(await exists(a, `${CM}/a`)).toBeUndefined();
  });

  test('preconditions: a uid or resourceVersion that does not match is a Conflict', async () => {
    const a = await start();
    const cm = await a.post(CM, { metadata: { name: 'a' } });
    expect(await statusOf(a.delete(`${CM}/a`, undefined, { preconditions: { uid: 'other' } }))).toMatchObject({
      code: 409,
      message: `Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition (other) does not match the UID in record (${cm.metadata.uid}). The object might have been deleted and then recreated`,
    });
    expect(await statusOf(a.delete(`${CM}/a`, undefined, { preconditions: { resourceVersion: '1' } }))).toMatchObject({ code: 409 });
    await a.delete(`${CM}/a`, undefined, { preconditions: { uid: cm.metadata.uid } });
  });

  test('deletecollection deletes what the selector matches', async () => {
    const a = await start();
    await a.post(CM, { metadata: { name: 'a', labels: { x: '1' } } });
    await a.post(CM, { metadata: { name: 'b' } });
    const answer = await a.delete(CM, { labelSelector: 'x=1' });
    expect(answer.items.map((i: any) => i.metadata.name)).toEqual(['a']);
    expect((await a.get(CM)).items.map((i: any) => i.metadata.name)).toEqual(['b']);
  });
});

describe('garbage collection', () => {
  test('background: a dependent whose owner is gone is deleted', async () => {
    const a = await start();
    const w = await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
    await a.post(CM, { metadata: { name: 'child', ownerReferences: [owner(w)] } });
    await a.delete(`${WIDGETS}/w`);
    await memory.server.idle();
    expect(await exists(a, `${CM}/child`)).toBeUndefined();
  });

  test('a dependent created with an owner that does not exist is collected; one with a live owner too stays, losing the dangling reference', async () => {
    const a = await start();
    const w = await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
    const ghost = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'ghost', uid: '00000000-0000-0000-0000-000000000000' };
    await a.post(CM, { metadata: { name: 'orphan', ownerReferences: [ghost] } });
    await a.post(CM, { metadata: { name: 'shared', ownerReferences: [ghost, owner(w)] } });
    await memory.server.idle();
    expect(await exists(a, `${CM}/orphan`)).toBeUndefined();
    expect((await a.get(`${CM}/shared`)).metadata.ownerReferences).toEqual([owner(w)]);
  });

  test('foreground: the owner waits with foregroundDeletion until dependents that block it are gone', async () => {
    const a = await start();
    const w = await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
    await a.post(CM, { metadata: { name: 'blocker', ownerReferences: [owner(w, true)], finalizers: ['example.com/hold'] } });
    const marked = await a.delete(`${WIDGETS}/w`, { propagationPolicy: 'Foreground' });
    expect(marked.metadata.finalizers).toEqual(['foregroundDeletion']);
    await memory.server.idle();
    expect((await a.get(`${CM}/blocker`)).metadata.deletionTimestamp).toBeDefined();
    expect((await a.get(`${WIDGETS}/w`)).metadata.deletionTimestamp).toBeDefined();
    await a.patch(`${CM}/blocker`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    await memory.server.idle();
    expect(await exists(a, `${WIDGETS}/w`)).toBeUndefined();
  });

  test('orphan: dependents stay and lose the owner reference', async () => {
    const a = await start();
    const w = await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
    await a.post(CM, { metadata: { name: 'child', ownerReferences: [owner(w)] } });
    await a.delete(`${WIDGETS}/w`, { propagationPolicy: 'Orphan' });
    await memory.server.idle();
    expect(await exists(a, `${WIDGETS}/w`)).toBeUndefined();
    expect((await a.get(`${CM}/child`)).metadata.ownerReferences).toBeUndefined();
  });
});

describe('namespaces', () => {
  test('deletion: Terminating, no new content, contents deleted, then the namespace goes once finalizers are done', async () => {
    const a = await start();
    await a.post('/api/v1/namespaces', { metadata: { name: 'team' } });
    const ns = await a.get('/api/v1/namespaces/team');
    expect(ns.spec.finalizers).toEqual(['kubernetes']);
    expect(ns.status.phase).toBe('Active');
    await a.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'plain' } });
    await a.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    const terminating = await a.delete('/api/v1/namespaces/team');
    expect(terminating.status.phase).toBe('Terminating');
    const refused = await statusOf(a.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'new' } }));
    expect(refused).toMatchObject({ code: 403, reason: 'Forbidden', message: 'configmaps "new" is forbidden: unable to create new content in namespace team because it is being terminated' });
    await memory.server.idle();
    expect(await exists(a, '/api/v1/namespaces/team/configmaps/plain')).toBeUndefined();
    const waiting = await a.get('/api/v1/namespaces/team');
    expect(waiting.status.conditions.find((c: any) => c.type === 'NamespaceFinalizersRemaining')).toMatchObject({ status: 'True', message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances' });
    await a.patch('/api/v1/namespaces/team/configmaps/held', { metadata: { finalizers: null } }, 'application/merge-patch+json');
    await memory.server.idle();
    expect(await exists(a, '/api/v1/namespaces/team')).toBeUndefined();
  });

  test('the system namespaces cannot be deleted', async () => {
    const a = await start();
    expect(await statusOf(a.delete('/api/v1/namespaces/default'))).toMatchObject({ code: 403, message: 'namespaces "default" is forbidden: this namespace may not be deleted' });
  });
});
