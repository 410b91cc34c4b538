// The test patterns of the "Testing" chapter, used by test/book/ against a real control
// plane.
// #region eventually
import { createClient, kinds, type Client } from '@opgen/runtime';
import { consistently, eventually, type ControlPlane } from '@opgen/runtime/testing';
import { expect } from 'vitest';
import { Widget } from './widget-types.js';

/**
 * A client straight to the API server: assert on what is stored, not on a cache that may
 * lag.
 */
export function directClient(cp: ControlPlane): Client {
  return createClient(cp.kubeConfig, { fieldManager: 'test' });
}

export async function expectWidgetReady(client: Client, name: string, namespace: string) {
  await client.create(Widget, { metadata: { name, namespace }, spec: { size: 4 } });
  // Wait for what the controller does: the probe is retried until it stops throwing.
  const config = await eventually(async () => {
    const cm = await client.get(kinds.ConfigMap, `${name}-size-4`, namespace);
    expect(cm?.data).toEqual({ size: '4' });
    return cm!;
  });
  expect(config.metadata.ownerReferences?.[0]).toMatchObject({
    kind: 'Widget',
    name,
    controller: true,
  });
  const widget = await eventually(async () => {
    const stored = await client.get(Widget, name, namespace);
    expect(stored?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
      'True',
    );
    return stored!;
  });
  expect(widget.status?.observedSize).toBe(4);
}
// #endregion eventually

// #region consistently
/** What the controller must not do: a Widget over its limit never gets a ConfigMap. */
export async function expectOversizedWidgetIgnored(
  client: Client,
  name: string,
  namespace: string,
) {
  await client.create(Widget, { metadata: { name, namespace }, spec: { size: 1000 } });
  await consistently(
    async () => {
      expect(
        await client.get(kinds.ConfigMap, `${name}-size-1000`, namespace),
      ).toBeUndefined();
    },
    { durationMs: 2_000 },
  );
}
// #endregion consistently
