import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isConflict, kinds, type Client } from '../../src/client/index.js';
import { createOrPatch, createOrUpdate } from '../../src/helpers/index.js';
import { mergePatchBetween } from '../../src/helpers/merge-patch.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { createNamespace } from '../client/support.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

let cp: ControlPlane;
let client: Client;
let ns: string;

beforeAll(async () => {
  cp = await startControlPlane();
  client = createClient(cp.kubeConfig);
  await installCRDs(cp.kubeConfig, WIDGET_CRD);
  ns = await createNamespace(client, 'cou');
});

afterAll(async () => {
  await cp?.stop();
});

describe('createOrUpdate', () => {
  it('creates a missing object, leaves an unchanged one alone, updates a changed one', async () => {
    const setSize = (size: string) => (cm: kinds.ConfigMap) => {
      cm.data = { ...cm.data, size };
    };
    const created = await createOrUpdate(client, kinds.ConfigMap, { metadata: { name: 'sized', namespace: ns } }, setSize('1'));
    expect(created.result).toBe('created');
    expect(created.object.data).toEqual({ size: '1' });

    const same = await createOrUpdate(client, kinds.ConfigMap, { metadata: { name: 'sized', namespace: ns } }, setSize('1'));
    expect(same.result).toBe('unchanged');
    expect((await client.get(kinds.ConfigMap, 'sized', ns))?.metadata?.resourceVersion).toBe(created.object.metadata?.resourceVersion);

    // Another writer's key survives: the mutation applies to the live object.
    await client.patch(kinds.ConfigMap, created.object, { data: { theirs: 'x' } });
    const updated = await createOrUpdate(client, kinds.ConfigMap, { metadata: { name: 'sized', namespace: ns } }, setSize('2'));
    expect(updated.result).toBe('updated');
    expect(updated.object.data).toEqual({ size: '2', theirs: 'x' });
  });

  it('fails with a conflict instead of overwriting a newer write it did not read', async () => {
    await client.create(kinds.ConfigMap, { metadata: { name: 'raced', namespace: ns }, data: { v: '1' } });
    const error = await createOrUpdate(client, kinds.ConfigMap, { metadata: { name: 'raced', namespace: ns } }, async (cm) => {
      await client.patch(kinds.ConfigMap, cm, { data: { v: 'newer' } });
      cm.data = { v: 'mine' };
    }).catch((e: unknown) => e);
    expect(isConflict(error)).toBe(true);
    expect((await client.get(kinds.ConfigMap, 'raced', ns))?.data).toEqual({ v: 'newer' });
  });

  it('refuses a mutation that renames the object', async () => {
    await expect(
      createOrUpdate(client, kinds.ConfigMap, { metadata: { name: 'named', namespace: ns } }, (cm) => {
        cm.metadata!.name = 'other';
      }),
    ).rejects.toThrow(`mutate must not change the name or namespace of ${ns}/named`);
  });
});

describe('createOrPatch', () => {
  it('creates with status, then patches only what changed, spec and status apart', async () => {
    const created = await createOrPatch(client, Widget, { metadata: { name: 'patched', namespace: ns }, spec: {} }, (w) => {
      w.spec.size = 3;
      w.status = { observedSize: 3 };
    });
    expect(created.result).toBe('created');
    expect(created.object).toMatchObject({ spec: { size: 3 }, status: { observedSize: 3 } });

    // A field someone else sets meanwhile is not part of the patch, so it stays.
    await client.patch(Widget, created.object, { spec: { delayMs: 5 } });
    const changed = await createOrPatch(client, Widget, { metadata: { name: 'patched', namespace: ns }, spec: {} }, (w) => {
      w.spec.size = 4;
      w.status = { ...w.status, observedSize: 4 };
    });
    expect(changed.result).toBe('updated');
    const stored = (await client.get(Widget, 'patched', ns))!;
    expect(stored.spec).toEqual({ size: 4, delayMs: 5 });
    expect(stored.status).toEqual({ observedSize: 4 });

    const again = await createOrPatch(client, Widget, { metadata: { name: 'patched', namespace: ns }, spec: {} }, (w) => {
      w.spec.size = 4;
    });
    expect(again.result).toBe('unchanged');
  });
});

describe('mergePatchBetween', () => {
  it('sets changed keys, nulls removed ones, replaces arrays whole, and leaves equal ones out', () => {
    expect(mergePatchBetween({ a: 1, b: { c: 1, d: 2 }, e: [1, 2], f: 'x' }, { a: 1, b: { c: 2 }, e: [1, 2, 3], g: true })).toEqual({
      b: { c: 2, d: null },
      e: [1, 2, 3],
      f: null,
      g: true,
    });
    expect(mergePatchBetween({ a: { b: [1] } }, { a: { b: [1] } })).toBeUndefined();
  });
});
