import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isNotFound, kinds, type Client } from '../../src/client/index.js';
import { ensureFinalizer, hasFinalizer, removeFinalizer } from '../../src/helpers/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { configMap, createNamespace } from '../client/support.js';

let cp: ControlPlane;
let client: Client;
let ns: string;

beforeAll(async () => {
  cp = await startControlPlane();
  client = createClient(cp.kubeConfig);
  ns = await createNamespace(client, 'fin');
});

afterAll(async () => {
  await cp?.stop();
});

const read = async (name: string) => (await client.get(kinds.ConfigMap, name, ns))!;

describe('finalizer helpers', () => {
  it('adds a finalizer once and returns the stored object', async () => {
    const created = await client.create(kinds.ConfigMap, configMap(ns, 'once'));
    const added = await ensureFinalizer(client, kinds.ConfigMap, created, 'test.opgen.dev/cleanup');
    expect(added.metadata?.finalizers).toEqual(['test.opgen.dev/cleanup']);
    expect(hasFinalizer(added, 'test.opgen.dev/cleanup')).toBe(true);
    expect(await ensureFinalizer(client, kinds.ConfigMap, added, 'test.opgen.dev/cleanup')).toBe(added);
    expect((await read('once')).metadata?.resourceVersion).toBe(added.metadata?.resourceVersion);
  });

  it('never drops a finalizer another writer added in between', async () => {
    const stale = await client.create(kinds.ConfigMap, configMap(ns, 'race'));
    await Promise.all(['a', 'b', 'c', 'd'].map((f) => ensureFinalizer(client, kinds.ConfigMap, stale, `test.opgen.dev/${f}`)));
    expect((await read('race')).metadata?.finalizers?.sort()).toEqual(['a', 'b', 'c', 'd'].map((f) => `test.opgen.dev/${f}`));

    const current = await read('race');
    await Promise.all(['a', 'c'].map((f) => removeFinalizer(client, kinds.ConfigMap, current, `test.opgen.dev/${f}`)));
    expect((await read('race')).metadata?.finalizers?.sort()).toEqual(['test.opgen.dev/b', 'test.opgen.dev/d']);
  });

  it('lets a deleted object go when the last finalizer is removed', async () => {
    const created = await client.create(kinds.ConfigMap, configMap(ns, 'held'));
    const held = await ensureFinalizer(client, kinds.ConfigMap, created, 'test.opgen.dev/cleanup');
    await client.delete(kinds.ConfigMap, held);
    const terminating = await read('held');
    expect(terminating.metadata?.deletionTimestamp).toBeTruthy();
    await removeFinalizer(client, kinds.ConfigMap, terminating, 'test.opgen.dev/cleanup');
    expect(await client.get(kinds.ConfigMap, 'held', ns)).toBeUndefined();
    expect(await removeFinalizer(client, kinds.ConfigMap, terminating, 'test.opgen.dev/cleanup')).toBeUndefined();
  });

  it('reports a vanished object as not found when adding', async () => {
    const created = await client.create(kinds.ConfigMap, configMap(ns, 'vanished'));
    await client.delete(kinds.ConfigMap, created);
    const error = await ensureFinalizer(client, kinds.ConfigMap, created, 'test.opgen.dev/cleanup').catch((e: unknown) => e);
    expect(isNotFound(error)).toBe(true);
  });
});
