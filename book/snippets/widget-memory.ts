// The memory-cluster patterns of the "Testing" chapter; test/book/ runs them.
// #region setup
import { createManager, kinds, type Client, type Manager } from '@opgen/runtime';
import { startTestCluster, type TestCluster } from '@opgen/runtime/testing';
import { expect } from 'vitest';
import { Widget } from './widget-types.js';

export interface ControllerTest {
  cluster: TestCluster;
  mgr: Manager;
  stop(): Promise<void>;
}

/**
 * The memory cluster with the CRDs of `crds`, a file or folder (or, with
 * OPGEN_TEST_TIER=controlplane, a real API server and etcd), and a manager running the
 * controllers `setup` registers, e.g. `setupWidgetController`.
 */
export async function startControllerTest(
  crds: string,
  setup: (mgr: Manager) => void,
): Promise<ControllerTest> {
  const cluster = await startTestCluster({ crds });
  // The cluster carries its clock: the manager's queues and requeues run on the test's
  // time.
  const mgr = createManager({
    cluster: cluster.cluster,
    handleSignals: false,
    logLevel: 'warn',
  });
  setup(mgr);
  const running = mgr.start();
  await mgr.elected();
  return {
    cluster,
    mgr,
    async stop() {
      mgr.stop();
      await running;
      await cluster.stop();
    },
  };
}
// #endregion setup

// #region run-until-idle
export async function expectWidgetReadyWhenIdle(
  cluster: TestCluster,
  client: Client,
  name: string,
  namespace: string,
) {
  await client.create(Widget, { metadata: { name, namespace }, spec: { size: 4 } });
  // No polling: the reconcile, its writes and the reconciles they cause are done now.
  await cluster.runUntilIdle();
  const widget = await client.get(Widget, name, namespace);
  expect(widget?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
    'True',
  );
  expect((await client.get(kinds.ConfigMap, `${name}-size-4`, namespace))?.data).toEqual({
    size: '4',
  });
}
// #endregion run-until-idle

// #region horizon
/**
 * The Widget controller returns `requeue.after('1h')`. An hour of the cluster's time
 * passes in a few milliseconds: time moves to that requeue, reconciles, and stops there,
 * since the next one is due an hour later still.
 */
export async function anHourLater(cluster: TestCluster): Promise<number> {
  const before = cluster.clock.now();
  await cluster.runUntilIdle({ horizon: '1h' });
  return cluster.clock.now() - before;
}
// #endregion horizon
