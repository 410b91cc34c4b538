import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { setControllerReference } from '../../src/helpers/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

// controller-runtime's field indexes (IndexField + MatchingFields), as the kubebuilder book's
// CronJob controller uses them to find its Jobs: declared on the controller, listed by
// ctx.client, served from the cache, namespace and index both applied.
describe('field indexes against a real API server', () => {
  let cp: ControlPlane;
  let mgr: Manager;
  let running: Promise<void>;
  let client: Client;
  /** What each reconcile listed by index, per namespace/name of the Widget. */
  const listed = new Map<string, string[]>();

  beforeAll(async () => {
    cp = await startControlPlane();
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
    client = createClient(cp.kubeConfig);
    for (const name of ['team-a', 'team-b']) await client.create(kinds.Namespace, { metadata: { name } });
    mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent' });

    controller(mgr)
      .for(Widget)
      .owns(kinds.ConfigMap, {
        indexes: { owner: (cm) => (cm.metadata?.ownerReferences ?? []).filter((ref) => ref.controller && ref.kind === 'Widget').map((ref) => ref.name) },
      })
      .reconcile(async (req, ctx) => {
        const widget = await ctx.client.get(Widget, req.name, req.namespace);
        if (!widget) return;
        const owned = await ctx.client.list(kinds.ConfigMap, { namespace: req.namespace, index: { owner: req.name } });
        listed.set(`${req.namespace}/${req.name}`, owned.map((cm) => cm.metadata!.name!).sort());
        for (let i = owned.length; i < (widget.spec.size ?? 0); i++) {
          const cm: kinds.ConfigMap = { metadata: { name: `${req.name}-${i}`, namespace: req.namespace } };
          await ctx.client.create(kinds.ConfigMap, setControllerReference(widget, Widget, cm));
        }
      });

    running = mgr.start();
    await mgr.elected();
  });

  afterAll(async () => {
    mgr?.stop();
    await running;
    await cp?.stop();
  });

  it("lists a reconcile's children by index within its namespace only", async () => {
    await client.create(Widget, { metadata: { name: 'w1', namespace: 'team-a' }, spec: { size: 2 } });
    await client.create(Widget, { metadata: { name: 'w1', namespace: 'team-b' }, spec: { size: 1 } });
    await client.create(Widget, { metadata: { name: 'w2', namespace: 'team-a' }, spec: { size: 1 } });
    // A ConfigMap of the same name that w1 does not own.
    await client.create(kinds.ConfigMap, { metadata: { name: 'w1-9', namespace: 'team-a' } });
    await eventually('the listed children', () =>
      listed.get('team-a/w1')?.length === 2 && listed.get('team-b/w1')?.length === 1 && listed.get('team-a/w2')?.length === 1,
    );
    expect(Object.fromEntries(listed)).toEqual({ 'team-a/w1': ['w1-0', 'w1-1'], 'team-b/w1': ['w1-0'], 'team-a/w2': ['w2-0'] });
  });

  it('across namespaces without one, and hands out copies: changing a listed object leaves the cache alone', async () => {
    const all = await mgr.client.list(kinds.ConfigMap, { index: { owner: 'w1' } });
    expect(all.map((cm) => `${cm.metadata!.namespace}/${cm.metadata!.name}`).sort()).toEqual(['team-a/w1-0', 'team-a/w1-1', 'team-b/w1-0']);
    all[0]!.metadata!.labels = { changed: 'yes' };
    const again = await mgr.client.list(kinds.ConfigMap, { index: { owner: 'w1' } });
    expect(again.every((cm) => cm.metadata?.labels?.changed === undefined)).toBe(true);
  });

  it('refuses an index query the cache cannot answer, saying why', async () => {
    await expect(mgr.client.list(kinds.ConfigMap, { index: { creator: 'w1' } })).rejects.toThrow('no index named "creator"');
    await expect(mgr.client.uncached().list(kinds.ConfigMap, { index: { owner: 'w1' } })).rejects.toThrow(
      'list of ConfigMap by index owner: indexes live in the cache, and this client does not read ConfigMap from one',
    );
  });
});
