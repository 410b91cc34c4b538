import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import { controller, kinds } from '../../src/index.js';
import { defineKind } from '../../src/api/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { startTestCluster, type TestCluster } from '../../src/testing/index.js';

// The scaffold's starter controller and its test, on either tier: tier.test.ts runs it on the
// memory cluster, tier.integration.test.ts on the real control plane.
const Gadget = defineKind<{ apiVersion?: string; kind?: string; metadata: { name?: string; namespace?: string }; spec?: { foo?: string }; status?: { conditions?: Array<{ type: string; status: string }> } }>({
  group: 'bench.opgen.dev',
  version: 'v1',
  kind: 'Gadget',
  plural: 'gadgets',
  namespaced: true,
});
const crds = fileURLToPath(new URL('../../../bench/testing/gadget-crd.yaml', import.meta.url));

function starter(mgr: Manager): void {
  controller(mgr)
    .for(Gadget)
    .owns(kinds.ConfigMap)
    .reconcile(async (gadget, ctx) => {
      const { name, namespace } = gadget.metadata;
      const foo = gadget.spec?.foo ?? '';
      await ctx.apply(kinds.ConfigMap, { metadata: { name }, data: { foo } });
      const configMap = await ctx.client.get(kinds.ConfigMap, name, namespace);
      await ctx.status.setCondition(
        configMap?.data?.foo === foo
          ? { type: 'Ready', status: 'True', reason: 'ConfigMapInSync', message: `ConfigMap ${name} holds spec.foo` }
          : { type: 'Ready', status: 'False', reason: 'ConfigMapPending', message: `ConfigMap ${name} does not hold spec.foo yet` },
      );
    });
}

let test: TestCluster | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

afterEach(async () => {
  mgr?.stop();
  await running;
  await test?.stop();
  test = mgr = running = undefined;
});

/** Runs the starter's test on `tier`; registers the cleanup with the calling file's afterEach. */
export async function starterPasses(tier: 'memory' | 'controlplane'): Promise<TestCluster> {
  test = await startTestCluster({ tier, crds });
  mgr = createManager({ cluster: test.cluster, handleSignals: false, logLevel: 'warn' });
  starter(mgr);
  running = mgr.start();
  await mgr.elected();
  await mgr.client.create(Gadget, { metadata: { name: 'g', namespace: 'default' }, spec: { foo: 'bar' } });
  await test.runUntilIdle();
  const ready = async () => (await mgr!.client.get(Gadget, 'g', 'default'))?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  if (tier === 'memory') expect(await ready()).toBe('True');
  else await expect.poll(ready, { timeout: 30_000 }).toBe('True');
  const configMap = await mgr.client.get(kinds.ConfigMap, 'g', 'default');
  expect(configMap?.data).toEqual({ foo: 'bar' });
  expect(configMap?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Gadget', name: 'g', controller: true });
  return test;
}

