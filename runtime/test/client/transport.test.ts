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

it('retries an idempotent call through dropped connections until the link is back; a create fails at once', async () => {
  const client = createClient(network.kubeConfig);
  network.cut();
  let listed: Promise<unknown>;
  try {
    const error = await client.create(kinds.ConfigMap, { metadata: { name: 'during-cut', namespace: 'default' } }).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('ECONNRESET');
    listed = client.list(kinds.ConfigMap, { namespace: 'default' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  } finally {
    network.heal();
  }
  expect(await listed).toEqual([]);
});

it('cancels a call hung on a silent connection when its signal aborts', async () => {
  const abort = new AbortController();
  const client = createClient(network.kubeConfig).withSignal(abort.signal);
  network.stall();
  try {
    const hung = client.get(kinds.ConfigMap, 'missing', 'default').catch((e: unknown) => e);
    setTimeout(() => abort.abort(new Error('test over')), 300);
    const error = (await hung) as Error;
    expect(error.name).toBe('AbortError');
    expect(error.message).toBe('GET /api/v1/namespaces/default/configmaps/missing: cancelled');
    expect(error.cause).toEqual(new Error('test over'));
  } finally {
    network.heal();
  }
});

it('gives up on a connection that sends no response headers and retries the call on a new one', async () => {
  const client = createClient(network.kubeConfig, { responseTimeoutMs: 500 });
  expect(await client.get(kinds.ConfigMap, 'missing', 'default')).toBeUndefined();
  network.stall();
  const read = client.get(kinds.ConfigMap, 'missing', 'default');
  await new Promise((resolve) => setTimeout(resolve, 200));
  network.heal();
  // The stalled connection stays silent forever; only a new one can answer.
  expect(await read).toBeUndefined();
});
