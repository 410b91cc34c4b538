import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineKind } from '../../src/api/kind.js';
import {
  ApiError,
  createClient,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isNotFound,
  kinds,
  retryOnConflict,
  type Client,
} from '../../src/client/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { configMap, createNamespace, installWidgetCRD, Widget } from './support.js';

let cp: ControlPlane;
let client: Client;
let ns: string;

beforeAll(async () => {
  cp = await startControlPlane();
  client = createClient(cp.kubeConfig, { fieldManager: 'client-test' });
  await installWidgetCRD(cp.kubeConfig);
  ns = await createNamespace(client);
});

afterAll(async () => {
  await cp?.stop();
});

describe('reads and writes of built-in kinds', () => {
  it('creates, gets, lists by label, updates, patches and deletes a ConfigMap', async () => {
    const created = await client.create(kinds.ConfigMap, configMap(ns, 'crud', { a: '1' }, { app: 'crud' }));
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.apiVersion).toBe('v1');

    const read = await client.get(kinds.ConfigMap, 'crud', ns);
    expect(read?.data).toEqual({ a: '1' });
    expect(typeof read?.metadata?.creationTimestamp).toBe('string');

    await client.create(kinds.ConfigMap, configMap(ns, 'other', {}, { app: 'other' }));
    const listed = await client.list(kinds.ConfigMap, { namespace: ns, labels: { app: 'crud' } });
    expect(listed.map((c) => c.metadata?.name)).toEqual(['crud']);
    expect(listed[0]?.kind).toBe('ConfigMap');

    read!.data = { a: '2' };
    const updated = await client.update(kinds.ConfigMap, read!);
    expect(updated.data).toEqual({ a: '2' });

    const patched = await client.patch(kinds.ConfigMap, updated, { data: { b: '3', a: null } });
    expect(patched.data).toEqual({ b: '3' });

    await client.delete(kinds.ConfigMap, patched);
    expect(await client.get(kinds.ConfigMap, 'crud', ns)).toBeUndefined();
  });

  it('returns undefined for a missing object and ignores deleting one', async () => {
    expect(await client.get(kinds.Secret, 'nope', ns)).toBeUndefined();
    await expect(client.delete(kinds.Secret, { metadata: { name: 'nope', namespace: ns } })).resolves.toBeUndefined();
  });

  it('handles cluster-scoped kinds', async () => {
    const namespaces = await client.list(kinds.Namespace);
    expect(namespaces.map((n) => n.metadata?.name)).toContain(ns);
    expect((await client.get(kinds.Namespace, ns))?.status?.phase).toBe('Active');
  });

  it('creates with generateName', async () => {
    const created = await client.create(kinds.ConfigMap, { metadata: { generateName: 'gen-', namespace: ns } });
    expect(created.metadata?.name).toMatch(/^gen-\w+$/);
  });

  it('fails loudly on a kind the API server does not serve, rather than reporting its objects missing', async () => {
    const Unknown = defineKind<Widget>({ group: 'nowhere.opgen.dev', version: 'v1', kind: 'Ghost', plural: 'ghosts', namespaced: true });
    const error = await client.get(Unknown, 'x', ns).catch((e: unknown) => e);
    expect(isNotFound(error)).toBe(false);
    expect((error as ApiError).code).toBe(404);
    expect((error as ApiError).message).toBe(
      `GET /apis/nowhere.opgen.dev/v1/namespaces/${ns}/ghosts/x: 404 Not Found: 404 page not found (the API server does not serve this resource: is its CRD installed?)`,
    );
  });

  it('refuses a namespaced request without a namespace before sending it', async () => {
    await expect(client.get(kinds.Pod, 'x')).rejects.toThrow('Pod "x" is namespaced: give its namespace');
  });

  it('writes as its field manager, and withFieldManager derives another', async () => {
    const other = client.withFieldManager('second-controller');
    expect(other.fieldManager).toBe('second-controller');
    await client.create(kinds.ConfigMap, configMap(ns, 'managed', { a: '1' }));
    const patched = await other.patch(kinds.ConfigMap, { metadata: { name: 'managed', namespace: ns } }, { data: { b: '2' } });
    const managers = patched.metadata?.managedFields?.map((m) => m.manager).sort();
    expect(managers).toEqual(['client-test', 'second-controller']);
  });
});

describe('typed errors', () => {
  it('isAlreadyExists on a second create, with the API message', async () => {
    await client.create(kinds.ConfigMap, configMap(ns, 'twice'));
    const error = await client.create(kinds.ConfigMap, configMap(ns, 'twice')).catch((e: unknown) => e);
    expect(isAlreadyExists(error)).toBe(true);
    expect(isConflict(error)).toBe(false);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(409);
    expect((error as ApiError).message).toBe('configmaps "twice" already exists');
  });

  it('isConflict on an update with a stale resourceVersion', async () => {
    const first = await client.create(kinds.ConfigMap, configMap(ns, 'stale', { v: '1' }));
    await client.update(kinds.ConfigMap, { ...first, data: { v: '2' } });
    const error = await client.update(kinds.ConfigMap, { ...first, data: { v: '3' } }).catch((e: unknown) => e);
    expect(isConflict(error)).toBe(true);
    expect((error as ApiError).reason).toBe('Conflict');
  });

  it('isNotFound on an update of a missing object, isInvalid on a rejected one', async () => {
    const missing = await client.update(kinds.ConfigMap, configMap(ns, 'ghost')).catch((e: unknown) => e);
    expect(isNotFound(missing)).toBe(true);
    const invalid = await client.create(Widget, { metadata: { name: 'bad', namespace: ns }, spec: { size: -1 } }).catch((e: unknown) => e);
    expect(isInvalid(invalid)).toBe(true);
    expect((invalid as ApiError).status?.details?.causes?.[0]?.field).toBe('spec.size');
  });
});

describe('custom kinds and the status subresource', () => {
  it('updates and patches status without touching spec, and spec without touching status', async () => {
    const created = await client.create(Widget, { metadata: { name: 'w1', namespace: ns }, spec: { size: 1 }, status: { ready: true } });
    expect(created.status).toBeUndefined();

    const withStatus = await client.updateStatus(Widget, { ...created, spec: { size: 99 }, status: { ready: true, observed: 1 } });
    expect(withStatus.status).toEqual({ ready: true, observed: 1 });
    expect(withStatus.spec.size).toBe(1);

    const patched = await client.patchStatus(Widget, withStatus, { status: { observed: 2 } });
    expect(patched.status).toEqual({ ready: true, observed: 2 });

    const specPatched = await client.patch(Widget, patched, { spec: { size: 5 }, status: { ready: false } });
    expect(specPatched.spec.size).toBe(5);
    expect(specPatched.status?.ready).toBe(true);
  });

  it('a status write racing another surfaces as a conflict; retryOnConflict gets the final status right', async () => {
    await client.create(Widget, { metadata: { name: 'race', namespace: ns }, spec: { size: 1 } });
    const stale = (await client.get(Widget, 'race', ns))!;
    await client.patchStatus(Widget, stale, { status: { observed: 10 } });

    const conflict = await client.updateStatus(Widget, { ...stale, status: { observed: 1 } }).catch((e: unknown) => e);
    expect(isConflict(conflict)).toBe(true);

    // Ten writers each add one, read-modify-write: without retries most would lose.
    await Promise.all(
      Array.from({ length: 10 }, () =>
        retryOnConflict(
          async () => {
            const fresh = (await client.get(Widget, 'race', ns))!;
            await client.updateStatus(Widget, { ...fresh, status: { ...fresh.status, observed: (fresh.status?.observed ?? 0) + 1 } });
          },
          { attempts: 20 },
        ),
      ),
    );
    expect((await client.get(Widget, 'race', ns))?.status?.observed).toBe(20);
  });

  it('retryOnConflict gives up after its attempts and rethrows the conflict', async () => {
    let calls = 0;
    const error = await retryOnConflict(
      async () => {
        calls++;
        const fresh = (await client.get(Widget, 'race', ns))!;
        await client.patchStatus(Widget, fresh, { status: { observed: calls } });
        await client.updateStatus(Widget, fresh);
      },
      { attempts: 3 },
    ).catch((e: unknown) => e);
    expect(isConflict(error)).toBe(true);
    expect(calls).toBe(3);
  });
});

describe('server-side apply', () => {
  it('creates and updates with the field manager, removing fields it no longer applies', async () => {
    const applier = client.withFieldManager('widget-controller');
    const first = await applier.apply(Widget, { metadata: { name: 'applied', namespace: ns }, spec: { size: 2, color: 'red' } });
    expect(first.spec).toEqual({ size: 2, color: 'red' });
    expect(first.metadata?.managedFields?.find((m) => m.operation === 'Apply')?.manager).toBe('widget-controller');

    const second = await applier.apply(Widget, { metadata: { name: 'applied', namespace: ns }, spec: { size: 3 } });
    expect(second.spec).toEqual({ size: 3 });
  });

  it('takes over fields another manager owns by default; with force: false that is a conflict', async () => {
    const alice = client.withFieldManager('alice');
    const bob = client.withFieldManager('bob');
    await alice.apply(kinds.ConfigMap, { metadata: { name: 'shared', namespace: ns }, data: { owner: 'alice' } });

    const refused = await bob
      .apply(kinds.ConfigMap, { metadata: { name: 'shared', namespace: ns }, data: { owner: 'bob' } }, { force: false })
      .catch((e: unknown) => e);
    expect(isConflict(refused)).toBe(true);

    const forced = await bob.apply(kinds.ConfigMap, { metadata: { name: 'shared', namespace: ns }, data: { owner: 'bob' } });
    expect(forced.data).toEqual({ owner: 'bob' });
  });

  it('merges set-type lists owned by different managers', async () => {
    await client.withFieldManager('a').apply(Widget, { metadata: { name: 'tags', namespace: ns }, spec: { size: 1, tags: ['x'] } });
    const merged = await client.withFieldManager('b').apply(Widget, { metadata: { name: 'tags', namespace: ns }, spec: { size: 1, tags: ['y'] } });
    expect(merged.spec.tags?.sort()).toEqual(['x', 'y']);
  });

  it('accepts an object read back from the server (managedFields dropped from the body)', async () => {
    const read = (await client.get(Widget, 'applied', ns))!;
    expect(read.metadata?.managedFields?.length).toBeGreaterThan(0);
    const reapplied = await client.withFieldManager('widget-controller').apply(Widget, {
      apiVersion: read.apiVersion,
      kind: read.kind,
      metadata: { name: 'applied', namespace: ns, labels: { re: 'applied' }, managedFields: read.metadata?.managedFields },
      spec: { size: 4 },
    });
    expect(reapplied.spec.size).toBe(4);
    expect(reapplied.metadata?.labels).toEqual({ re: 'applied' });
  });

  it('applies status through the status subresource', async () => {
    const applied = await client.withFieldManager('widget-controller').applyStatus(Widget, {
      metadata: { name: 'applied', namespace: ns },
      status: { ready: true },
    });
    expect(applied.status?.ready).toBe(true);
    const statusManager = applied.metadata?.managedFields?.find((m) => m.subresource === 'status');
    expect(statusManager?.manager).toBe('widget-controller');
  });
});

describe('delete options', () => {
  it('orphans dependants with propagationPolicy Orphan (the finalizer shows it was honoured)', async () => {
    await client.create(kinds.ConfigMap, { ...configMap(ns, 'held'), metadata: { name: 'held', namespace: ns, finalizers: ['test.opgen.dev/hold'] } });
    await client.delete(kinds.ConfigMap, { metadata: { name: 'held', namespace: ns } }, { propagationPolicy: 'Orphan' });
    const terminating = await client.get(kinds.ConfigMap, 'held', ns);
    expect(terminating?.metadata?.deletionTimestamp).toBeTruthy();
    expect(terminating?.metadata?.finalizers).toContain('orphan');
  });
});
