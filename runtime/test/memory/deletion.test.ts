import { afterEach, expect, test } from 'vitest';
import { controller, createManager, kinds, type Manager } from '../../src/index.js';
import { defineKind } from '../../src/api/kind.js';
import type { Condition } from '../../src/api/index.js';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { widgetCRD } from './support.js';

interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; finalizers?: string[] };
  spec?: { foo?: string };
  status?: { conditions?: Condition[] };
}
const Widget = defineKind<Widget, true>({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

let memory: MemoryCluster | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

afterEach(async () => {
  mgr?.stop();
  await running;
  memory?.close();
});

// A new user's first deletion test, as they write it after the scaffold's: the starter's
// reconcile under a finalizer, the manager's client, and runUntilIdle after each step.
test('create, runUntilIdle, delete, runUntilIdle: the cleanup runs once and the object is gone', async () => {
  memory = await createMemoryCluster({ crds: [widgetCRD()] });
  mgr = createManager({ cluster: memory.cluster, handleSignals: false, logLevel: 'warn' });
  const cleanedUp: string[] = [];
  controller(mgr)
    .for(Widget)
    .owns(kinds.ConfigMap)
    .reconcile((widget, ctx) =>
      ctx.finalize('example.com/cleanup', {
        apply: async () => {
          const { name, namespace } = widget.metadata;
          await ctx.apply(kinds.ConfigMap, { metadata: { name }, data: { foo: widget.spec?.foo ?? '' } });
          const configMap = await ctx.client.get(kinds.ConfigMap, name, namespace);
          await ctx.status.setCondition({ type: 'Ready', status: configMap ? 'True' : 'False', reason: 'ConfigMapSeen', message: `ConfigMap ${name}` });
        },
        cleanup: async () => void cleanedUp.push(widget.metadata.name),
      }),
    );
  running = mgr.start();
  await mgr.elected();
  const client = mgr.client;

  await client.create(Widget, { metadata: { name: 'w', namespace: 'default' }, spec: { foo: 'bar' } });
  await memory.runUntilIdle();
  expect((await client.get(Widget, 'w', 'default'))?.status?.conditions?.[0]?.status).toBe('True');

  await client.delete(Widget, { metadata: { name: 'w', namespace: 'default' } });
  await memory.runUntilIdle();
  expect(await client.get(Widget, 'w', 'default')).toBeUndefined();
  expect(cleanedUp).toEqual(['w']);
});
