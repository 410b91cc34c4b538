import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { setControllerReference } from '../../src/helpers/index.js';
import { shardLabel } from '../../src/sharding/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';
import { killAll, type LogLine, type ManagerProcess } from '../fixtures/manager-process.js';
import { shardReplicas } from '../fixtures/shard-replicas.js';

// Real operator processes on a real control plane, sharding Widgets and the ConfigMaps they
// own by labels: the sharder labels nothing but Widgets in the namespace the manager
// watches and the ConfigMaps those control; and a sharder that may not write its labels
// gives up its Lease, says so in its readiness, and another replica takes over.
const NS = 'default';
const ELSEWHERE = 'elsewhere';
const GUARDED = 'guarded';
// As the sharding test's: short, yet a loaded 2-core machine renews in time.
const LEASE = { durationMs: 8_000, renewDeadlineMs: 6_000, retryMs: 1_000 };
const SCRIPT = fileURLToPath(new URL('../fixtures/sharded-widget-manager.ts', import.meta.url));
const NO_PATCH = 'no-configmap-patch';
const OWNS = { OWNS_CONFIGMAPS: '1' };

let cp: ControlPlane;
let admin: Client;
const started: ManagerProcess[] = [];
const replicasOf = (ring: string) => {
  const replicas = shardReplicas({ script: SCRIPT, ring, lease: LEASE, kubeconfigPath: () => cp.kubeconfigPath });
  return {
    start: (shard: string, args: string[]) => {
      const m = replicas.start(shard, OWNS, args);
      started.push(m);
      return m;
    },
    /** Ends this ring's replicas. */
    stop: () => killAll(replicas.all),
    /** Runs `step`; a failure carries each replica's last log lines. */
    async step<T>(step: Promise<T>): Promise<T> {
      try {
        return await step;
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${replicas.tails()}`);
      }
    },
  };
};

beforeAll(async () => {
  cp = await startControlPlane({ users: [{ name: NO_PATCH }] });
  await installCRDs(cp.kubeConfig, WIDGET_CRD);
  admin = createClient(cp.kubeConfig);
  for (const name of [ELSEWHERE, GUARDED]) await admin.create(kinds.Namespace, { metadata: { name } });
  // Everything a replica needs, but ConfigMaps only to read: its sharder's label patches of them are forbidden.
  await admin.create(kinds.ClusterRole, {
    metadata: { name: NO_PATCH },
    rules: [
      { apiGroups: ['test.opgen.dev'], resources: ['*'], verbs: ['*'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['*'] },
      { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['*'] },
      { apiGroups: [''], resources: ['configmaps', 'namespaces'], verbs: ['get', 'list', 'watch'] },
    ],
  });
  await admin.create(kinds.ClusterRoleBinding, {
    metadata: { name: NO_PATCH },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: NO_PATCH },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: NO_PATCH }],
  });
}, 300_000);

afterAll(async () => {
  await killAll(started);
  await cp?.stop();
});

/** A Widget and a ConfigMap it controls. */
async function widgetWithChild(namespace: string, name: string): Promise<void> {
  const widget = await admin.create(Widget, { metadata: { name, namespace }, spec: { size: 1 } });
  await admin.create(kinds.ConfigMap, setControllerReference(widget, Widget, { metadata: { name: `${name}-child`, namespace }, data: { a: 'b' } }));
}

describe('the sharder touches only what it shards', () => {
  it('labels the sharded kind and the children sharded objects control, in the watched namespace; nothing else gets a label or a field manager entry', async () => {
    const ring = 'scoped';
    const S = shardLabel(ring);
    const names = Array.from({ length: 10 }, (_, i) => `w-${i}`);
    for (const name of names) await widgetWithChild(NS, name);
    // Not the sharder's business: unowned, owned by a kind it does not shard, or outside the watched namespace.
    await admin.create(kinds.ConfigMap, { metadata: { name: 'loose', namespace: NS }, data: { a: 'b' } });
    const foreignOwner = { apiVersion: 'test.opgen.dev/v1', kind: 'Gadget', name: 'g', uid: randomUUID(), controller: true };
    await admin.create(kinds.ConfigMap, { metadata: { name: 'foreign', namespace: NS, ownerReferences: [foreignOwner] }, data: { a: 'b' } });
    await widgetWithChild(ELSEWHERE, 'far');
    await admin.create(kinds.ConfigMap, { metadata: { name: 'loose', namespace: ELSEWHERE }, data: { a: 'b' } });

    const replicas = replicasOf(ring);
    for (const shard of ['a', 'b']) replicas.start(shard, ['--namespace', NS]);
    await eventually(
      'every Widget and its child labelled for one shard',
      async () => {
        const widgets = await admin.list(Widget, { namespace: NS });
        const children = await admin.list(kinds.ConfigMap, { namespace: NS });
        return widgets.every((w) => w.metadata.labels?.[S] && children.find((c) => c.metadata.name === `${w.metadata.name}-child`)?.metadata.labels?.[S] === w.metadata.labels[S]);
      },
      120_000,
    );
    // The sharder has been through every object it watches once; give a stray write time to land.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const untouched = [
      await admin.get(kinds.ConfigMap, 'loose', NS),
      await admin.get(kinds.ConfigMap, 'foreign', NS),
      await admin.get(kinds.ConfigMap, 'loose', ELSEWHERE),
      await admin.get(kinds.ConfigMap, 'far-child', ELSEWHERE),
      await admin.get(Widget, 'far', ELSEWHERE),
    ];
    for (const object of untouched) {
      expect(object?.metadata.labels?.[S], `${object?.metadata.namespace}/${object?.metadata.name}`).toBeUndefined();
      expect(object?.metadata.managedFields?.map((m) => m.manager)).not.toContain(`opgen-sharding-${ring}`);
    }
    await replicas.stop();
  }, 300_000);
});

describe('a sharder that stops working', () => {
  it('gives up its Lease when a label write is forbidden, fails its readiness, and another replica takes over within the Lease duration', async () => {
    const ring = 'guarded';
    const S = shardLabel(ring);
    const replicas = replicasOf(ring);
    // A probe address of its own: the fixture's '0' turns the probes off.
    const args = ['--namespace', GUARDED, '--health-probe-bind-address=127.0.0.1:0'];
    const refused = replicas.start('refused', [...args, '--kubeconfig', cp.userKubeConfig(NO_PATCH).kubeconfigPath]);
    await refused.line('its sharder synced', (l) => l.msg === 'Sharder synced');
    const healthy = replicas.start('healthy', args);
    await healthy.line('its shard joined', (l) => l.msg === 'Reconciling this shard');

    await widgetWithChild(GUARDED, 'g');
    const gaveUp = await replicas.step(refused.line('the sharder giving up', (l) => l.msg === 'Sharder stopped working: giving up its Lease'));
    const readyz = await fetch(`http://127.0.0.1:${portOf(await refused.line('probes', (l) => l.msg === 'Serving health probes'))}/readyz`);
    expect(readyz.status).toBe(500);
    expect(await readyz.text()).toContain('[-]sharder-guarded failed: the sharder of ring guarded stopped working');

    const takeover = await replicas.step(healthy.line('the healthy replica sharding', (l) => l.msg === 'Sharder started', LEASE.durationMs * 3));
    expect(Date.parse(String(takeover.time)) - Date.parse(String(gaveUp.time))).toBeLessThan(LEASE.durationMs);
    const child = await eventually('the child labelled by the healthy replica', async () => (await admin.get(kinds.ConfigMap, 'g-child', GUARDED))?.metadata.labels?.[S], 60_000);
    expect((await admin.get(Widget, 'g', GUARDED))?.metadata.labels?.[S]).toBe(child);
  }, 300_000);
});

/** The port of a `Serving health probes` line's bind address. */
function portOf(line: LogLine): number {
  return Number(String(line.bindAddress).split(':').pop());
}
