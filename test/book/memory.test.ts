import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCalls } from '../../book/snippets/reconcile-records.js';
import { setupWidgetController } from '../../book/snippets/widget-controller.js';
import { Widget } from '../../book/snippets/widget-types.js';
import { anHourLater, expectWidgetReadyWhenIdle, startControllerTest, type ControllerTest } from '../../book/snippets/widget-memory.js';

/** The "Testing" chapter's memory-cluster patterns, with the book's Widget controller. */
describe('the book’s Widget controller on the memory cluster', () => {
  let test: ControllerTest;

  beforeAll(async () => {
    test = await startControllerTest(new URL('./widget-crd.yaml', import.meta.url).pathname, setupWidgetController);
    expect(test.cluster.tier).toBe('memory');
  });

  afterAll(async () => {
    await test?.stop();
  });

  it('"Testing": the ConfigMap and the Ready condition are there when runUntilIdle returns', async () => {
    await expectWidgetReadyWhenIdle(test.cluster, test.mgr.client, 'idle', 'default');
  });

  it('"Developing": onReconcile sees each reconcile\'s API calls, until stopped', async () => {
    const counter = countCalls();
    await expectWidgetReadyWhenIdle(test.cluster, test.mgr.client, 'counted', 'default');
    counter.stop();
    // The finalizer, the ConfigMap, the status and its condition: at least four writes.
    expect(counter.calls.get('widget')).toBeGreaterThanOrEqual(4);
    const seen = counter.calls.get('widget');
    await test.mgr.client.patch(Widget, { metadata: { name: 'counted', namespace: 'default' } }, { spec: { size: 6 } });
    await test.cluster.runUntilIdle();
    expect(counter.calls.get('widget')).toBe(seen);
  });

  it('"Testing": runUntilIdle with a horizon of an hour reaches the controller’s hourly requeue, and no further', async () => {
    const began = performance.now();
    const moved = await anHourLater(test.cluster);
    // The requeue was set when the Widget was reconciled, at most a few ms of backoff before.
    expect(moved).toBeGreaterThan(3_590_000);
    expect(moved).toBeLessThanOrEqual(3_600_000);
    expect(performance.now() - began).toBeLessThan(5_000);
  });
});
