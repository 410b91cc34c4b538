import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineKind } from '../../src/api/kind.js';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import type { Condition } from '../../src/api/index.js';
import { watchCharts, UNINSTALL_FINALIZER, type ChartResource, type ChartWatch } from '../../src/helm/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';

const NS = 'default';
const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/helm/${path}`, import.meta.url));
const HELM = execFileSync('bash', [fileURLToPath(new URL('../../../hack/helm/build.sh', import.meta.url)), '--print'], { encoding: 'utf8' }).trim();
const Webapp = defineKind<ChartResource>({ group: 'charts.example.com', version: 'v1alpha1', kind: 'Webapp', plural: 'webapps', namespaced: true });

const watch: ChartWatch = {
  group: 'charts.example.com',
  version: 'v1alpha1',
  kind: 'Webapp',
  chart: fixture('webapp'),
  watchDependentResources: true,
  overrideValues: { owner: '$WEBAPP_OWNER' },
  // No periodic reconcile: drift must be repaired from the watches alone.
  reconcilePeriodMs: 0,
  maxConcurrentReconciles: 2,
};

function condition(cr: ChartResource | undefined, type: string): Condition | undefined {
  return cr?.status?.conditions?.find((c) => c.type === type);
}

describe('chart reconciler against a real API server', () => {
  let cp: ControlPlane;
  let client: Client;
  let mgr: Manager;
  let running: Promise<void>;

  beforeAll(async () => {
    process.env.WEBAPP_OWNER = 'platform-team';
    cp = await startControlPlane();
    client = createClient(cp.kubeConfig);
    await installCRDs(cp.kubeConfig, fixture('webapp-crd.yaml'));
    mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent', healthProbeBindAddress: '0', metricsBindAddress: '0' });
    await watchCharts(mgr, { watches: [watch], helm: HELM });
    running = mgr.start();
    await mgr.elected();
  });
  afterAll(async () => {
    mgr?.stop();
    await running?.catch(() => undefined);
    await cp?.stop();
  });

  const config = (name: string) => client.get(kinds.ConfigMap, `${name}-config`, NS);
  const webapp = (name: string) => client.get(Webapp, name, NS);

  it('installs the chart with the spec as values (overrides win), then upgrades it when the spec changes', async () => {
    await client.create(Webapp, { metadata: { name: 'shop', namespace: NS }, spec: { message: 'first', owner: 'someone-else' } });
    const installed = await eventually('ConfigMap rendered from the spec', async () => (await config('shop'))?.data?.message === 'first' && config('shop'));
    expect(installed.data?.owner).toBe('platform-team');
    const shop = await eventually('Deployed', async () => condition(await webapp('shop'), 'Deployed')?.status === 'True' && webapp('shop'));
    expect(condition(shop, 'Deployed')?.reason).toBe('InstallSuccessful');
    expect(condition(shop, 'Initialized')?.status).toBe('True');
    expect(shop?.status?.deployedRelease?.name).toBe('shop');
    // No rendered manifest in the status (a reader of the CR would read every Secret the chart
    // renders): its digest, and the objects the release applied.
    expect(shop?.status?.deployedRelease).not.toHaveProperty('manifest');
    expect(shop?.status?.deployedRelease?.manifestDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(shop?.status?.deployedRelease?.objects).toContainEqual({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'shop-config' });
    // The chart's test hook is for `helm test`: never installed.
    expect(shop?.status?.deployedRelease?.objects?.map((o) => o.name)).not.toContain('shop-test');
    expect(await client.uncached().get(kinds.Pod, 'shop-test', NS)).toBeUndefined();
    expect(shop?.metadata?.finalizers).toContain(UNINSTALL_FINALIZER);
    expect(installed.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Webapp', name: 'shop', uid: shop?.metadata?.uid, controller: true });

    const events = await eventually('OverrideValuesInUse event', async () => {
      const list = await client.list(kinds.Event, { namespace: NS });
      return list.find((e) => e.reason === 'OverrideValuesInUse' && e.regarding?.name === 'shop');
    });
    expect(events.note).toBe('Chart value "owner" overridden to "platform-team" by operator\'s watches.yaml');

    await client.patch(Webapp, shop!, { spec: { message: 'second' } });
    await eventually('ConfigMap upgraded', async () => (await config('shop'))?.data?.message === 'second');
    await eventually('UpgradeSuccessful', async () => condition(await webapp('shop'), 'Deployed')?.reason === 'UpgradeSuccessful');
  });

  it('recreates a deleted object only non-default values render, and prunes what the chart no longer renders', async () => {
    await client.patch(Webapp, { metadata: { name: 'shop', namespace: NS } }, { spec: { service: { enabled: true, port: 8080 } } });
    const service = await eventually('Service rendered', () => client.get(kinds.Service, 'shop', NS));
    expect(service.spec?.ports?.[0]?.port).toBe(8080);
    await eventually('release recorded', async () => (await webapp('shop'))?.status?.deployedRelease?.objects?.some((o) => o.kind === 'Service'));
    // The default values render no Service; its template names the kind, so it is watched too
    // (which kinds are watched is checked in template-kinds.test.ts).
    await client.delete(kinds.Service, service);
    const recreated = await eventually('Service recreated', async () => {
      const now = await client.uncached().get(kinds.Service, 'shop', NS);
      return now && now.metadata?.uid !== service.metadata?.uid && now;
    });
    expect(recreated.spec?.ports?.[0]?.port).toBe(8080);
    await client.patch(Webapp, { metadata: { name: 'shop', namespace: NS } }, { spec: { service: { enabled: false } } });
    await eventually('Service pruned', async () => (await client.get(kinds.Service, 'shop', NS)) === undefined);
    // The release is recorded in the status after the prune: wait for it rather than race it.
    await eventually('release recorded without the Service', async () => (await webapp('shop'))?.status?.deployedRelease?.objects?.some((o) => o.kind === 'Service') === false);
    expect(await config('shop')).toBeDefined();
  });

  it('repairs drift: a changed object is changed back, a deleted one is recreated', async () => {
    const before = await config('shop');
    await client.withFieldManager('kubectl-edit').apply(kinds.ConfigMap, { metadata: { name: 'shop-config', namespace: NS }, data: { message: 'tampered' } }, { force: true });
    await eventually('ConfigMap repaired', async () => (await client.uncached().get(kinds.ConfigMap, 'shop-config', NS))?.data?.message === 'second');
    await client.delete(kinds.ConfigMap, { metadata: { name: 'shop-config', namespace: NS } });
    const recreated = await eventually('ConfigMap recreated', async () => {
      const cm = await client.uncached().get(kinds.ConfigMap, 'shop-config', NS);
      return cm && cm.metadata?.uid !== before?.metadata?.uid && cm;
    });
    expect(recreated.data?.message).toBe('second');
  });

  it('reports a chart that does not render in the status and keeps reconciling other CRs', async () => {
    await client.create(Webapp, { metadata: { name: 'broken', namespace: NS }, spec: { fail: true } });
    const failed = await eventually('ReleaseFailed', async () => condition(await webapp('broken'), 'ReleaseFailed')?.status === 'True' && condition(await webapp('broken'), 'ReleaseFailed'));
    expect(failed.reason).toBe('InstallError');
    expect(failed.message).toContain('the values ask this chart to fail');
    expect(await config('broken')).toBeUndefined();

    await client.create(Webapp, { metadata: { name: 'other', namespace: NS }, spec: { message: 'still running' } });
    await eventually('other CR installed', async () => (await config('other'))?.data?.message === 'still running');

    await client.patch(Webapp, { metadata: { name: 'broken', namespace: NS } }, { spec: { fail: false } });
    const fixed = await eventually('Deployed after the fix', async () => condition(await webapp('broken'), 'Deployed')?.status === 'True' && webapp('broken'));
    expect(condition(fixed, 'ReleaseFailed')).toBeUndefined();
  });

  it('honours operator-sdk\'s legacy finalizer and its CR annotations (reconcile-period)', async () => {
    await client.create(Webapp, {
      metadata: { name: 'legacy', namespace: NS, finalizers: ['uninstall-helm-release'], annotations: { 'helm.sdk.operatorframework.io/reconcile-period': 'soon' } },
      spec: { message: 'moved over' },
    });
    const bad = await eventually('Irreconcilable', async () => condition(await webapp('legacy'), 'Irreconcilable'));
    expect(bad.message).toContain('helm.sdk.operatorframework.io/reconcile-period: "soon" is not a duration');
    await client.patch(Webapp, { metadata: { name: 'legacy', namespace: NS } }, { metadata: { annotations: { 'helm.sdk.operatorframework.io/reconcile-period': '10m' } } });
    await eventually('installed', async () => (await config('legacy'))?.data?.message === 'moved over');
    expect((await webapp('legacy'))?.metadata?.finalizers).toEqual(['uninstall-helm-release']);
    await client.delete(Webapp, { metadata: { name: 'legacy', namespace: NS } });
    await eventually('CR gone', async () => (await client.uncached().get(Webapp, 'legacy', NS)) === undefined);
    expect(await client.uncached().get(kinds.ConfigMap, 'legacy-config', NS)).toBeUndefined();
  });

  it('with uninstall-wait, keeps the CR until the release\'s objects are gone', async () => {
    await client.create(Webapp, { metadata: { name: 'waiter', namespace: NS, annotations: { 'helm.sdk.operatorframework.io/uninstall-wait': 'true' } }, spec: {} });
    const cm = await eventually('installed', () => config('waiter'));
    await client.patch(kinds.ConfigMap, cm, { metadata: { finalizers: ['example.com/hold'] } });
    await client.delete(Webapp, { metadata: { name: 'waiter', namespace: NS } });
    await eventually('ConfigMap being deleted', async () => (await client.uncached().get(kinds.ConfigMap, 'waiter-config', NS))?.metadata?.deletionTimestamp);
    // Held by the ConfigMap's finalizer: the CR waits for it.
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await client.uncached().get(Webapp, 'waiter', NS))?.metadata?.finalizers).toContain(UNINSTALL_FINALIZER);
    await client.patch(kinds.ConfigMap, { metadata: { name: 'waiter-config', namespace: NS } }, { metadata: { finalizers: null } });
    await eventually('CR gone', async () => (await client.uncached().get(Webapp, 'waiter', NS)) === undefined);
  });

  it('never overwrites or deletes an object the release did not create: invalid ownership metadata', async () => {
    // Someone else's ConfigMap under the name the chart renders.
    const theirs = await client.create(kinds.ConfigMap, { metadata: { name: 'taken-config', namespace: NS }, data: { message: 'theirs' } });
    await client.create(Webapp, { metadata: { name: 'taken', namespace: NS }, spec: { message: 'ours' } });
    const refused = await eventually('ReleaseFailed', async () => condition(await webapp('taken'), 'ReleaseFailed'));
    expect(refused.message).toContain('ConfigMap default/taken-config exists and is not this release\'s: invalid ownership metadata (it has no annotation helm.opgen.dev/owner');
    expect((await client.uncached().get(kinds.ConfigMap, 'taken-config', NS))?.metadata.resourceVersion).toBe(theirs.metadata.resourceVersion);

    // An object taken out of a release (its owner annotation and reference removed) is not the release's any more.
    await client.create(Webapp, { metadata: { name: 'handed', namespace: NS }, spec: { message: 'ours' } });
    await eventually('installed', async () => condition(await webapp('handed'), 'Deployed')?.status === 'True');
    const handed = await client.patch(kinds.ConfigMap, { metadata: { name: 'handed-config', namespace: NS } }, { metadata: { annotations: null, ownerReferences: null }, data: { message: 'theirs now' } });
    await eventually('ReleaseFailed', async () => condition(await webapp('handed'), 'ReleaseFailed')?.message?.includes('invalid ownership metadata'));
    for (const name of ['taken', 'handed']) await client.delete(Webapp, { metadata: { name, namespace: NS } });
    await eventually('both CRs uninstalled', async () => (await client.uncached().list(Webapp, { namespace: NS })).every((w) => !['taken', 'handed'].includes(w.metadata.name)));
    expect((await client.uncached().get(kinds.ConfigMap, 'taken-config', NS))?.data).toEqual({ message: 'theirs' });
    expect((await client.uncached().get(kinds.ConfigMap, 'handed-config', NS))?.metadata.resourceVersion).toBe(handed.metadata.resourceVersion);
  });

  it('uninstalls through the finalizer when the CR is deleted (no garbage collector runs here)', async () => {
    await client.patch(Webapp, { metadata: { name: 'shop', namespace: NS } }, { spec: { service: { enabled: true } } });
    await eventually('Service rendered again', () => client.get(kinds.Service, 'shop', NS));
    await client.delete(Webapp, { metadata: { name: 'shop', namespace: NS } });
    await eventually('CR gone', async () => (await client.uncached().get(Webapp, 'shop', NS)) === undefined);
    expect(await client.uncached().get(kinds.ConfigMap, 'shop-config', NS)).toBeUndefined();
    expect(await client.uncached().get(kinds.Service, 'shop', NS)).toBeUndefined();
    expect(await client.uncached().get(kinds.ConfigMap, 'other-config', NS)).toBeDefined();
  });
});
