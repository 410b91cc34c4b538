import { afterEach, describe, expect, test } from 'vitest';
import { controller, createManager, kinds, type Manager } from '../../src/index.js';
import { setControllerReference } from '../../src/helpers/index.js';
import { defineKind } from '../../src/api/kind.js';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { widgetCRD } from './support.js';

interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; generation?: number; resourceVersion?: string };
  spec?: { message?: string };
  status?: { observedGeneration?: number; configMap?: string };
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

/** The real manager, cache, informers, work queue and client over the memory cluster, with a controller that owns a ConfigMap per Widget. */
async function startWithController(leaderElection = false) {
  memory = await createMemoryCluster({ crds: [widgetCRD()] });
  mgr = createManager({ cluster: memory.cluster, handleSignals: false, logLevel: (process.env.MEMLOG as never) ?? 'silent', leaderElection, leaderElectionId: leaderElection ? 'widgets.example.com' : undefined, leaderElectionNamespace: 'default' });
  const reconciles: string[] = [];
  controller(mgr)
    .for(Widget)
    .owns(kinds.ConfigMap)
    .reconcile(async (widget, ctx) => {
      reconciles.push(widget.metadata.name);
      const name = `${widget.metadata.name}-message`;
      const existing = await ctx.client.get(kinds.ConfigMap, name, widget.metadata.namespace);
      const data = { message: widget.spec?.message ?? '' };
      if (existing) await ctx.client.update(kinds.ConfigMap, { ...existing, data });
      else await ctx.client.create(kinds.ConfigMap, setControllerReference(widget, Widget, { metadata: { name, namespace: widget.metadata.namespace }, data }));
      await ctx.client.patchStatus(Widget, widget, { status: { observedGeneration: widget.metadata.generation, configMap: name } });
    });
  running = mgr.start();
  await mgr.elected();
  return reconciles;
}

describe('a controller on the memory cluster', () => {
  test('reconciles a custom object: creates its owned child and writes its status; a spec change reconciles again; deleting it collects the child', async () => {
    await startWithController();
    const client = mgr!.client.uncached();
    await client.create(Widget, { metadata: { name: 'hello', namespace: 'default' }, spec: { message: 'hi' } });
    await memory!.runUntilIdle();
    const child = await client.get(kinds.ConfigMap, 'hello-message', 'default');
    expect(child?.data).toEqual({ message: 'hi' });
    expect(child?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Widget', name: 'hello', controller: true, blockOwnerDeletion: true });
    expect((await client.get(Widget, 'hello', 'default'))?.status).toEqual({ observedGeneration: 1, configMap: 'hello-message' });

    await client.patch(Widget, { metadata: { name: 'hello', namespace: 'default' } }, { spec: { message: 'bye' } });
    await memory!.runUntilIdle();
    expect((await client.get(kinds.ConfigMap, 'hello-message', 'default'))?.data).toEqual({ message: 'bye' });
    expect((await client.get(Widget, 'hello', 'default'))?.status?.observedGeneration).toBe(2);

    await client.delete(Widget, { metadata: { name: 'hello', namespace: 'default' } });
    await memory!.runUntilIdle();
    expect(await client.get(kinds.ConfigMap, 'hello-message', 'default')).toBeUndefined();
  });

  test('a child deleted behind the controller\'s back is recreated through the owned informer', async () => {
    const reconciles = await startWithController();
    const client = mgr!.client.uncached();
    await client.create(Widget, { metadata: { name: 'again', namespace: 'default' }, spec: { message: 'x' } });
    await memory!.runUntilIdle();
    const before = reconciles.length;
    await client.delete(kinds.ConfigMap, { metadata: { name: 'again-message', namespace: 'default' } });
    await memory!.runUntilIdle();
    expect(reconciles.length).toBeGreaterThan(before);
    expect((await client.get(kinds.ConfigMap, 'again-message', 'default'))?.data).toEqual({ message: 'x' });
  });

  // A new user's first deletion test, as they write it after the scaffold's: a reconcile
  // under a finalizer, the manager's client, and runUntilIdle after each step.
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
            await ctx.apply(kinds.ConfigMap, { metadata: { name: `${name}-message` }, data: { message: widget.spec?.message ?? '' } });
            const configMap = await ctx.client.get(kinds.ConfigMap, `${name}-message`, namespace);
            await ctx.status.apply({ observedGeneration: widget.metadata.generation, configMap: configMap?.metadata?.name });
          },
          cleanup: async () => void cleanedUp.push(widget.metadata.name),
        }),
      );
    running = mgr.start();
    await mgr.elected();
    const client = mgr.client;

    await client.create(Widget, { metadata: { name: 'bye', namespace: 'default' }, spec: { message: 'hi' } });
    await memory.runUntilIdle();
    expect((await client.get(Widget, 'bye', 'default'))?.status).toEqual({ observedGeneration: 1, configMap: 'bye-message' });

    await client.delete(Widget, { metadata: { name: 'bye', namespace: 'default' } });
    await memory.runUntilIdle();
    expect(await client.get(Widget, 'bye', 'default')).toBeUndefined();
    expect(cleanedUp).toEqual(['bye']);
  });

  test('leader election takes its Lease on the memory cluster', async () => {
    await startWithController(true);
    const lease = await mgr!.client.uncached().get(kinds.Lease, 'widgets.example.com', 'default');
    expect(lease?.spec?.holderIdentity).toBeTruthy();
  });
});
