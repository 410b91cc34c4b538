import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { api, statusOf, widgetCRD } from './support.js';

let memory: MemoryCluster;
afterEach(() => memory?.close());

const CM = '/api/v1/namespaces/default/configmaps';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

async function start(crds = [widgetCRD()]) {
  memory = await createMemoryCluster({ crds });
  return api(memory.transport);
}

describe('create', () => {
  test('fills uid, creationTimestamp and a resourceVersion from one counter; a second create of the name is AlreadyExists', async () => {
    const a = await start();
    const first = await a.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '1' } });
    const second = await a.post(CM, { metadata: { name: 'b' } });
    expect(first.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Number(second.metadata.resourceVersion)).toBe(Number(first.metadata.resourceVersion) + 1);
    expect(first.metadata.generation).toBeUndefined();
    expect(await statusOf(a.post(CM, { metadata: { name: 'a' } }))).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "a" already exists', reason: 'AlreadyExists', details: { name: 'a', kind: 'configmaps' }, code: 409,
    });
  });

  test('generateName gets five random characters', async () => {
    const a = await start();
    const made = await a.post(CM, { metadata: { generateName: 'job-' } });
    expect(made.metadata.name).toMatch(/^job-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  test('refuses an invalid name with 422 and the validator message, and a missing namespace with 404', async () => {
    const a = await start();
    const invalid = await statusOf(a.post(CM, { metadata: { name: 'Bad_Name' } }));
    expect(invalid.code).toBe(422);
    expect(invalid.reason).toBe('Invalid');
    expect(invalid.message).toBe(
      `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
    expect(invalid.details?.causes?.[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
    expect(await statusOf(a.post(CM, { metadata: {} }))).toMatchObject({ code: 422, message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required' });
    expect(await statusOf(a.post('/api/v1/namespaces/nowhere/configmaps', { metadata: { name: 'a' } }))).toMatchObject({
      code: 404, reason: 'NotFound', message: 'namespaces "nowhere" not found', details: { name: 'nowhere', kind: 'namespaces' },
    });
  });

  test('a custom resource with the status subresource drops status on create and starts at generation 1', async () => {
    const a = await start();
    const made = await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 }, status: { ready: true } });
    expect(made.status).toBeUndefined();
    expect(made.metadata.generation).toBe(1);
  });
});

describe('update', () => {
  test('a stale resourceVersion is a Conflict with the API server message; a PUT that changes nothing keeps the resourceVersion', async () => {
    const a = await start();
    const made = await a.post(CM, { metadata: { name: 'a' }, data: { x: '1' } });
    const changed = await a.put(`${CM}/a`, { ...made, data: { x: '2' } });
    expect(changed.metadata.resourceVersion).not.toBe(made.metadata.resourceVersion);
    expect(await statusOf(a.put(`${CM}/a`, { ...made, data: { x: '3' } }))).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict', details: { name: 'a', kind: 'configmaps' }, code: 409,
    });
    const same = await a.put(`${CM}/a`, changed);
    expect(same.metadata.resourceVersion).toBe(changed.metadata.resourceVersion);
  });

  test('built-ins take an update without resourceVersion; custom resources refuse it with 422', async () => {
    const a = await start();
    await a.post(CM, { metadata: { name: 'a' } });
    expect((await a.put(`${CM}/a`, { metadata: { name: 'a' }, data: { y: '1' } })).data).toEqual({ y: '1' });
    await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
    expect(await statusOf(a.put(`${WIDGETS}/w`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }))).toMatchObject({
      code: 422, reason: 'Invalid', message: 'widgets.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
      details: { name: 'w', group: 'example.com', kind: 'widgets' },
    });
  });

  test('the name in the body must be the one in the URL', async () => {
    const a = await start();
    await a.post(CM, { metadata: { name: 'a' } });
    expect(await statusOf(a.put(`${CM}/a`, { metadata: { name: 'b' } }))).toMatchObject({ code: 400, reason: 'BadRequest', message: 'the name of the object (b) does not match the name on the URL (a)' });
  });

  test('generation moves on spec changes only; status changes on the main resource are ignored, and /status ignores everything but status', async () => {
    const a = await start();
    let w = await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
    w = await a.put(`${WIDGETS}/w`, { ...w, metadata: { ...w.metadata, labels: { a: 'b' } } });
    expect(w.metadata.generation).toBe(1);
    w = await a.put(`${WIDGETS}/w`, { ...w, spec: { size: 2 }, status: { ready: true } });
    expect(w.metadata.generation).toBe(2);
    expect(w.status).toBeUndefined();
    w = await a.put(`${WIDGETS}/w/status`, { ...w, spec: { size: 9 }, metadata: { ...w.metadata, labels: { c: 'd' } }, status: { ready: true } });
    expect(w).toMatchObject({ spec: { size: 2 }, status: { ready: true }, metadata: { generation: 2, labels: { a: 'b' } } });
  });

  test('without the status subresource a status change is a change like any other (generation moves)', async () => {
    const a = await start([widgetCRD({ status: false })]);
    let w = await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, status: { ready: false } });
    expect(w.status).toEqual({ ready: false });
    w = await a.put(`${WIDGETS}/w`, { ...w, status: { ready: true } });
    expect(w.metadata.generation).toBe(2);
    expect(await statusOf(a.put(`${WIDGETS}/w/status`, w))).toMatchObject({ code: 404 });
  });

  test('Deployment generation moves on spec and annotation changes; its status is kept from storage', async () => {
    const a = await start();
    const path = '/apis/apps/v1/namespaces/default/deployments';
    const template = { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    let d = await a.post(path, { metadata: { name: 'd' }, spec: { replicas: 1, selector: { matchLabels: { app: 'd' } }, template }, status: { replicas: 5 } });
    expect(d.status).toEqual({});
    d = await a.put(`${path}/d`, { ...d, metadata: { ...d.metadata, annotations: { x: 'y' } }, status: { replicas: 3 } });
    expect(d.metadata.generation).toBe(2);
    expect(d.status).toEqual({});
  });
});

describe('patch', () => {
  test('JSON merge patch, JSON patch (a failed test op is 422), and strategic merge patch merging containers by name', async () => {
    const a = await start();
    await a.post(CM, { metadata: { name: 'a', labels: { keep: 'me', drop: 'me' } }, data: { x: '1' } });
    const merged = await a.patch(`${CM}/a`, { metadata: { labels: { drop: null } }, data: { y: '2' } }, 'application/merge-patch+json');
    expect(merged.metadata.labels).toEqual({ keep: 'me' });
    expect(merged.data).toEqual({ x: '1', y: '2' });
    const patched = await a.patch(`${CM}/a`, [{ op: 'replace', path: '/data/x', value: '9' }, { op: 'add', path: '/data/z', value: '3' }], 'application/json-patch+json');
    expect(patched.data).toEqual({ x: '9', y: '2', z: '3' });
    const failed = await statusOf(a.patch(`${CM}/a`, [{ op: 'test', path: '/data/x', value: '1' }], 'application/json-patch+json'));
    expect(failed).toMatchObject({ code: 422, reason: 'Invalid' });

    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    await a.post(deployments, {
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'app', image: 'a:1' }, { name: 'side', image: 's:1' }] } } },
    });
    const smp = await a.patch(`${deployments}/d`, { spec: { template: { spec: { containers: [{ name: 'side', image: 's:2' }] } } } }, 'application/strategic-merge-patch+json');
    expect(smp.spec.template.spec.containers.map((c: any) => [c.name, c.image])).toEqual([['app', 'a:1'], ['side', 's:2']]);
    // A new item goes before the server's items that followed the patch's known ones, as kube-apiserver orders it.
    const added = await a.patch(`${deployments}/d`, { spec: { template: { spec: { containers: [{ name: 'new', image: 'n:1' }] } } } }, 'application/strategic-merge-patch+json');
    expect(added.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['new', 'app', 'side']);
    // Defaults a real API server fills in on decode.
    expect(smp.spec.template.spec.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' });
    expect(smp.spec).toMatchObject({ replicas: 1, revisionHistoryLimit: 10, strategy: { type: 'RollingUpdate' } });
    const removed = await a.patch(`${deployments}/d`, { spec: { template: { spec: { containers: [{ name: 'app', $patch: 'delete' }] } } } }, 'application/strategic-merge-patch+json');
    expect(removed.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['new', 'side']);
  });

  test('a patch type the resource does not take is 415 listing those it takes; a patch of a missing object is 404', async () => {
    const a = await start();
    await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
    expect(await statusOf(a.patch(`${WIDGETS}/w`, {}, 'application/strategic-merge-patch+json'))).toMatchObject({
      code: 415, reason: 'UnsupportedMediaType', message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    });
    expect(await statusOf(a.patch(`${WIDGETS}/nope`, {}, 'application/merge-patch+json'))).toMatchObject({ code: 404, message: 'widgets.example.com "nope" not found', details: { group: 'example.com', kind: 'widgets', name: 'nope' } });
  });

  test('a merge patch of /status changes only status', async () => {
    const a = await start();
    await a.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
    const w = await a.patch(`${WIDGETS}/w/status`, { spec: { size: 5 }, status: { phase: 'Ready' } }, 'application/merge-patch+json');
    expect(w).toMatchObject({ spec: { size: 1 }, status: { phase: 'Ready' }, metadata: { generation: 1 } });
  });
});

describe('requests the memory cluster does not serve fail loudly', () => {
  test('an unknown subresource is 501 naming it; an unknown resource is 404; POST to an object is 405', async () => {
    const a = await start();
    const log = await statusOf(a.get('/api/v1/namespaces/default/pods/p/log'));
    expect(log.code).toBe(501);
    expect(log.message).toContain('the log subresource of pods');
    await expect(a.get('/apis/nothing.example.com/v1/things')).rejects.toThrow('GET /apis/nothing.example.com/v1/things: 404 Not Found: 404 page not found');
    expect(await statusOf(a.post(`${CM}/x`, {}))).toMatchObject({ code: 405, reason: 'MethodNotAllowed' });
  });
});
