import { afterEach, describe, expect, test } from 'vitest';
import { controller, createClient, createManager, kinds, type Manager } from '../../src/index.js';
import { defineKind } from '../../src/api/kind.js';
import { clusterApiClusters, clusterProfileClusters, kubeconfigSecretClusters, namespaceClusters, type ClusterProvider } from '../../src/multicluster/index.js';
import { currentContextOf, type KubeConfig } from '../../src/rest/index.js';
import { createFakeClock } from '../../src/testing/memory/clock.js';
import { createMemoryCluster, type MemoryCluster, type MemoryClusterOptions } from '../../src/testing/memory/cluster.js';
import { widgetCRD } from '../memory/support.js';

interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec?: { message?: string };
}
const Widget = defineKind<Widget, true>({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

const clock = createFakeClock();
let made: MemoryCluster[] = [];
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

afterEach(async () => {
  mgr?.stop();
  await running;
  for (const memory of made) memory.close();
  made = [];
});

async function memoryCluster(options: MemoryClusterOptions = {}): Promise<MemoryCluster> {
  const memory = await createMemoryCluster({ clock, crds: [widgetCRD()], ...options });
  made.push(memory);
  return memory;
}

const widget = (namespace: string) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace }, spec: { message: 'hi' } });
const clientOf = (memory: MemoryCluster) => createClient(memory.cluster);
const clusterNamed = async (memory: MemoryCluster, namespace = 'default') => (await clientOf(memory).get(kinds.ConfigMap, 'w-config', namespace))?.data?.cluster;

/** A kubeconfig naming `server`; the test connects servers to memory clusters by name. */
const kubeconfigFor = (server: string) =>
  Buffer.from(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'c',
    }),
  ).toString('base64');

/** A CRD of a namespaced kind that keeps any fields, with the status subresource: enough of another project's kind for a provider. */
function anyFieldsCRD(group: string, version: string, kind: string, plural: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      scope: 'Namespaced',
      versions: [{ name: version, served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

/** A manager on `host` whose controller writes, per Widget, a ConfigMap naming the reconcile's cluster. */
async function start(host: MemoryCluster, clusters: ClusterProvider): Promise<void> {
  mgr = createManager({ cluster: host.cluster, clusters, handleSignals: false, logLevel: (process.env.MEMLOG as never) ?? 'silent' });
  controller(mgr)
    .for(Widget)
    .owns(kinds.ConfigMap)
    .reconcile(async (w, ctx) => {
      await ctx.apply(kinds.ConfigMap, { metadata: { name: `${w.metadata.name}-config` }, data: { cluster: ctx.cluster.name } });
    });
  running = mgr.start();
  await mgr.elected();
  await host.runUntilIdle();
}

describe('namespaces as clusters', () => {
  test('each selected namespace is a cluster of its own, engaged when it appears and disengaged when it goes', async () => {
    const tenant = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { tenant: 'true' } } });
    const host = await memoryCluster({
      objects: [tenant('tenant-a'), tenant('tenant-b'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } }, widget('tenant-a'), widget('tenant-b'), widget('other')],
    });
    await start(host, namespaceClusters({ labelSelector: 'tenant=true' }));
    expect(mgr!.clusters!.names()).toEqual(['tenant-a', 'tenant-b']);
    expect(await clusterNamed(host, 'tenant-a')).toBe('tenant-a');
    expect(await clusterNamed(host, 'tenant-b')).toBe('tenant-b');
    expect(await clusterNamed(host, 'other')).toBeUndefined();
    // A cluster's cache holds its namespace only.
    expect(mgr!.clusters!.get('tenant-a')!.cache.informerFor(Widget).list().map((w) => w.metadata.namespace)).toEqual(['tenant-a']);

    const client = clientOf(host);
    await client.create(kinds.Namespace, tenant('tenant-c'));
    await client.create(Widget, widget('tenant-c'));
    await host.runUntilIdle();
    expect(await clusterNamed(host, 'tenant-c')).toBe('tenant-c');

    await client.delete(kinds.Namespace, { metadata: { name: 'tenant-b' } });
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual(['tenant-a', 'tenant-c']);
  });
});

describe('kubeconfig Secrets', () => {
  const secret = (name: string, server: string, labels: Record<string, string> = { 'sigs.k8s.io/multicluster-runtime-kubeconfig': 'true' }) => ({
    metadata: { name, namespace: 'fleet', labels },
    data: { kubeconfig: kubeconfigFor(server) },
  });

  test('a Secret added engages its cluster, a changed kubeconfig re-engages it, a Secret deleted disengages it', async () => {
    const host = await memoryCluster({ objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fleet' } }] });
    const east = await memoryCluster({ objects: [widget('default')] });
    const west = await memoryCluster({ objects: [widget('default')] });
    const servers = new Map([
      ['https://east.example:6443', east],
      ['https://west.example:6443', west],
    ]);
    const connect = (kubeConfig: KubeConfig) => servers.get(currentContextOf(kubeConfig).cluster.server)!.cluster;
    await start(host, kubeconfigSecretClusters({ namespace: 'fleet', connect }));
    const client = clientOf(host);

    await client.create(kinds.Secret, secret('prod', 'https://east.example:6443'));
    await client.create(kinds.Secret, secret('unlabelled', 'https://west.example:6443', {}));
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual(['prod']);
    expect(await clusterNamed(east)).toBe('prod');
    expect(await clusterNamed(west)).toBeUndefined();

    // The kubeconfig now points at west: "prod" is the west cluster from now on.
    await client.patch(kinds.Secret, { metadata: { name: 'prod', namespace: 'fleet' } }, { data: { kubeconfig: kubeconfigFor('https://west.example:6443') } });
    await host.runUntilIdle();
    expect(await clusterNamed(west)).toBe('prod');
    await clientOf(east).delete(kinds.ConfigMap, { metadata: { name: 'w-config', namespace: 'default' } });
    await host.runUntilIdle();
    expect(await clusterNamed(east)).toBeUndefined();

    // A kubeconfig that cannot be read disengages the cluster; a good one brings it back.
    await client.patch(kinds.Secret, { metadata: { name: 'prod', namespace: 'fleet' } }, { data: { kubeconfig: Buffer.from('clusters: [').toString('base64') } });
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual([]);
    await client.patch(kinds.Secret, { metadata: { name: 'prod', namespace: 'fleet' } }, { data: { kubeconfig: kubeconfigFor('https://east.example:6443') } });
    await host.runUntilIdle();
    expect(await clusterNamed(east)).toBe('prod');

    await client.delete(kinds.Secret, { metadata: { name: 'prod', namespace: 'fleet' } });
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual([]);
    await clientOf(east).delete(kinds.ConfigMap, { metadata: { name: 'w-config', namespace: 'default' } });
    await host.runUntilIdle();
    expect(await clusterNamed(east)).toBeUndefined();
  });
});

describe('Cluster API Clusters', () => {
  const clusterCRD = anyFieldsCRD('cluster.x-k8s.io', 'v1beta2', 'Cluster', 'clusters');
  const CapiCluster = defineKind<{ metadata?: { name?: string; namespace?: string }; status?: { phase?: string } }, true>({ group: 'cluster.x-k8s.io', version: 'v1beta2', kind: 'Cluster', plural: 'clusters', namespaced: true });

  test('a Cluster is engaged as namespace/name once provisioned, through its <name>-kubeconfig Secret, and disengaged when deleted', async () => {
    const host = await memoryCluster({ crds: [widgetCRD(), clusterCRD], objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'capi' } }] });
    const workload = await memoryCluster({ objects: [widget('default')] });
    await start(host, clusterApiClusters({ namespace: 'capi', connect: () => workload.cluster }));
    const client = clientOf(host);

    await client.create(CapiCluster, { metadata: { name: 'prod', namespace: 'capi' } });
    await client.patchStatus(CapiCluster, { metadata: { name: 'prod', namespace: 'capi' } }, { status: { phase: 'Provisioning' } });
    await client.create(kinds.Secret, { metadata: { name: 'prod-kubeconfig', namespace: 'capi' }, type: 'cluster.x-k8s.io/secret', data: { value: kubeconfigFor('https://prod.example:6443') } });
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual([]);

    await client.patchStatus(CapiCluster, { metadata: { name: 'prod', namespace: 'capi' } }, { status: { phase: 'Provisioned' } });
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual(['capi/prod']);
    expect(await clusterNamed(workload)).toBe('capi/prod');

    await client.delete(CapiCluster, { metadata: { name: 'prod', namespace: 'capi' } });
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual([]);
  });
});

describe('ClusterProfiles', () => {
  const profileCRD = anyFieldsCRD('multicluster.x-k8s.io', 'v1alpha1', 'ClusterProfile', 'clusterprofiles');
  const Profile = defineKind<{ metadata?: { name?: string; namespace?: string }; status?: { conditions?: Array<Record<string, string>> } }, true>({ group: 'multicluster.x-k8s.io', version: 'v1alpha1', kind: 'ClusterProfile', plural: 'clusterprofiles', namespaced: true });
  const healthy = (status: string) => ({ status: { conditions: [{ type: 'ControlPlaneHealthy', status, reason: 'Probe', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] } });

  test('a healthy ClusterProfile is engaged through the Secret labelled for this consumer; deleting the profile disengages it', async () => {
    const host = await memoryCluster({ crds: [widgetCRD(), profileCRD], objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'inventory' } }] });
    const member = await memoryCluster({ objects: [widget('default')] });
    await start(host, clusterProfileClusters({ consumerName: 'widgets', namespace: 'inventory', connect: () => member.cluster }));
    const client = clientOf(host);
    const labels = (consumer: string) => ({ 'x-k8s.io/cluster-inventory-consumer': consumer, 'x-k8s.io/cluster-profile': 'edge' });

    await client.create(Profile, { metadata: { name: 'edge', namespace: 'inventory' } });
    await client.patchStatus(Profile, { metadata: { name: 'edge', namespace: 'inventory' } }, healthy('False'));
    await client.create(kinds.Secret, { metadata: { name: 'edge-for-others', namespace: 'inventory', labels: labels('others') }, data: { Config: kubeconfigFor('https://edge.example') } });
    await client.create(kinds.Secret, { metadata: { name: 'edge-for-widgets', namespace: 'inventory', labels: labels('widgets') }, data: { Config: kubeconfigFor('https://edge.example') } });
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual([]);

    await client.patchStatus(Profile, { metadata: { name: 'edge', namespace: 'inventory' } }, healthy('True'));
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual(['inventory/edge']);
    expect(await clusterNamed(member)).toBe('inventory/edge');

    await client.delete(Profile, { metadata: { name: 'edge', namespace: 'inventory' } });
    await host.runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual([]);
  });
});
