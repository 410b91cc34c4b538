import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { kubeconfigSecretClusters, KUBECONFIG_SECRET_LABEL } from '../../src/multicluster/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

describe('one manager, two real control planes, clusters from kubeconfig Secrets', () => {
  let east: ControlPlane;
  let west: ControlPlane;
  let mgr: Manager;
  let running: Promise<void>;
  const clients: Record<string, Client> = {};

  beforeAll(async () => {
    [east, west] = await Promise.all([startControlPlane(), startControlPlane()]);
    clients.east = createClient(east.kubeConfig);
    clients.west = createClient(west.kubeConfig);
    await Promise.all([installCRDs(east.kubeConfig, WIDGET_CRD), installCRDs(west.kubeConfig, WIDGET_CRD)]);
    // The manager runs on east; its Secrets name both control planes, east itself included.
    await clients.east.create(kinds.Namespace, { metadata: { name: 'fleet' } });
    for (const [name, cp] of [['east', east], ['west', west]] as const) {
      await clients.east.create(kinds.Secret, {
        metadata: { name, namespace: 'fleet', labels: { [KUBECONFIG_SECRET_LABEL]: 'true' } },
        stringData: { kubeconfig: readFileSync(cp.kubeconfigPath, 'utf8') },
      });
    }
    mgr = createManager({ kubeConfig: east.kubeConfig, clusters: kubeconfigSecretClusters({ namespace: 'fleet' }), handleSignals: false, logLevel: 'silent' });
    controller(mgr)
      .for(Widget)
      .owns(kinds.ConfigMap)
      .reconcile(async (widget, ctx) => {
        await ctx.apply(kinds.ConfigMap, { metadata: { name: `${widget.metadata.name}-config` }, data: { cluster: ctx.cluster.name, size: String(widget.spec.size ?? 0) } });
      });
    running = mgr.start();
    await mgr.elected();
  }, 180_000);

  afterAll(async () => {
    mgr?.stop();
    await running;
    await Promise.all([east?.stop(), west?.stop()]);
  });

  const configOf = async (cluster: string) => (await clients[cluster]!.get(kinds.ConfigMap, 'w-config', 'default'))?.data;
  const resize = (cluster: string, size: number) => clients[cluster]!.patch(Widget, { metadata: { name: 'w', namespace: 'default' } }, { spec: { size } });

  it('reconciles both; while west\'s API server is down east goes on; once west is back it converges too', async () => {
    for (const cluster of ['east', 'west']) await clients[cluster]!.create(Widget, { metadata: { name: 'w', namespace: 'default' }, spec: { size: 1 } });
    await vi.waitFor(
      async () => {
        expect(await configOf('east')).toEqual({ cluster: 'east', size: '1' });
        expect(await configOf('west')).toEqual({ cluster: 'west', size: '1' });
      },
      { timeout: 30_000, interval: 200 },
    );

    let westBack = false;
    const outage = west.restartApiServer({ downMs: 20_000 }).then(() => (westBack = true));
    // West's watches break now; a change on east is reconciled while west is still down.
    const probe = createClient(west.kubeConfig, { timeoutMs: 2_000 });
    await vi.waitFor(async () => expect(await probe.get(kinds.Namespace, 'default').then(() => 'up', () => 'down')).toBe('down'), { timeout: 10_000, interval: 200 });
    await resize('east', 2);
    await vi.waitFor(async () => expect(await configOf('east')).toEqual({ cluster: 'east', size: '2' }), { timeout: 15_000, interval: 200 });
    expect(westBack).toBe(false);

    await outage;
    await resize('west', 3);
    await vi.waitFor(async () => expect(await configOf('west')).toEqual({ cluster: 'west', size: '3' }), { timeout: 60_000, interval: 500 });
    expect(mgr.clusters!.get('west')?.synced()).toBe(true);
  }, 180_000);
});
