import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, isNotFound, kinds } from '../../src/client/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { startNetworkCut, type NetworkCut } from '../cache/support.js';

let cp: ControlPlane;
let network: NetworkCut;

beforeAll(async () => {
  cp = await startControlPlane();
  network = await startNetworkCut(cp.kubeConfig);
});

afterAll(async () => {
  await network?.close();
  await cp?.stop();
});

it('fails a request the API server never answers after the timeout, and works again once the link is back', async () => {
  const client = createClient(network.kubeConfig, { timeoutMs: 500 });
  expect(await client.get(kinds.ConfigMap, 'missing', 'default')).toBeUndefined();

  network.stall();
  const error = await client.get(kinds.ConfigMap, 'missing', 'default').catch((e: unknown) => e);
  expect((error as Error).message).toBe('GET /api/v1/namespaces/default/configmaps/missing: no answer from the API server within 500 ms');
  expect(isNotFound(error)).toBe(false);

  network.heal();
  expect(await client.get(kinds.ConfigMap, 'missing', 'default')).toBeUndefined();
});

it('surfaces a dropped connection as its network error, and recovers once the link is back', async () => {
  const client = createClient(network.kubeConfig);
  network.cut();
  try {
    const error = await client.list(kinds.ConfigMap, { namespace: 'default' }).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('ECONNRESET');
  } finally {
    network.heal();
  }
  expect(await client.list(kinds.ConfigMap, { namespace: 'default' })).toEqual([]);
});
