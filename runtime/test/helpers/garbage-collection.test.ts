import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { setControllerReference } from '../../src/helpers/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { configMap, createNamespace, installWidgetCRD, Widget } from '../client/support.js';

let cp: ControlPlane;
let client: Client;

beforeAll(async () => {
  cp = await startControlPlane({ controllerManager: true });
  client = createClient(cp.kubeConfig);
  await installWidgetCRD(cp.kubeConfig);
});

afterAll(async () => {
  await cp?.stop();
});

it('an object with a controller reference is garbage-collected with its owner', async () => {
  const ns = await createNamespace(client, 'gc');
  const owner = await client.create(Widget, { metadata: { name: 'owner', namespace: ns }, spec: { size: 1 } });
  const child = await client.create(kinds.ConfigMap, setControllerReference(owner, Widget, configMap(ns, 'child')));
  const bystander = await client.create(kinds.ConfigMap, configMap(ns, 'bystander'));
  expect(child.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Widget', uid: owner.metadata?.uid, controller: true });

  await client.delete(Widget, owner, { propagationPolicy: 'Foreground' });
  await vi.waitFor(async () => expect(await client.get(kinds.ConfigMap, 'child', ns)).toBeUndefined(), { timeout: 30_000, interval: 200 });
  // Foreground deletion keeps the owner until its blocking dependants are gone, then removes it too.
  await vi.waitFor(async () => expect(await client.get(Widget, 'owner', ns)).toBeUndefined(), { timeout: 30_000, interval: 200 });
  expect(await client.get(kinds.ConfigMap, bystander.metadata!.name!, ns)).toBeDefined();
});
