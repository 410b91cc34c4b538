import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics/index.js';
import { createWorkQueue } from '../../src/queue/index.js';

/** The value of one sample line, e.g. `workqueue_depth{name="a",controller="a"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics registry', () => {
  it('exposes every controller series at zero as soon as the controller exists', async () => {
    const metrics = createMetrics({ processMetrics: false });
    metrics.controllers.forController('demo', 4);
    const text = await metrics.registry.metrics();
    for (const result of ['success', 'error', 'requeue', 'requeue_after']) {
      expect(sample(text, `controller_runtime_reconcile_total{controller="demo",result="${result}"}`)).toBe(0);
    }
    expect(sample(text, 'controller_runtime_reconcile_errors_total{controller="demo"}')).toBe(0);
    expect(sample(text, 'controller_runtime_terminal_reconcile_errors_total{controller="demo"}')).toBe(0);
    expect(sample(text, 'controller_runtime_reconcile_panics_total{controller="demo"}')).toBe(0);
    expect(sample(text, 'controller_runtime_max_concurrent_reconciles{controller="demo"}')).toBe(4);
    expect(sample(text, 'controller_runtime_active_workers{controller="demo"}')).toBe(0);
  });

  it("records reconcile times in controller-runtime's buckets", async () => {
    const metrics = createMetrics({ processMetrics: false });
    metrics.controllers.forController('demo', 1).reconciled('success', 0.2);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'controller_runtime_reconcile_time_seconds_bucket{le="0.15",controller="demo"}')).toBe(0);
    expect(sample(text, 'controller_runtime_reconcile_time_seconds_bucket{le="0.2",controller="demo"}')).toBe(1);
    expect(sample(text, 'controller_runtime_reconcile_time_seconds_bucket{le="60",controller="demo"}')).toBe(1);
    expect(text.match(/^controller_runtime_reconcile_time_seconds_bucket\{/gm)).toHaveLength(41);
    expect(sample(text, 'controller_runtime_reconcile_total{controller="demo",result="success"}')).toBe(1);
  });

  it('keeps each registry to itself, so two managers in one process do not collide', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.controllers.forController('same', 1).reconciled('error', 0.01);
    b.controllers.forController('same', 1);
    expect(sample(await a.registry.metrics(), 'controller_runtime_reconcile_total{controller="same",result="error"}')).toBe(1);
    expect(sample(await b.registry.metrics(), 'controller_runtime_reconcile_total{controller="same",result="error"}')).toBe(0);
  });

  it("reports a work queue's adds, depth, retries and in-flight work under name and controller labels", async () => {
    const metrics = createMetrics({ processMetrics: false });
    const queue = createWorkQueue({ metrics: metrics.workQueues.forQueue('demo', () => queue.inFlight()) });
    const labels = '{name="demo",controller="demo"}';
    queue.add('a');
    queue.add('a');
    queue.add('b');
    queue.addAfter('c', 60_000);
    const key = await queue.get();
    await new Promise((r) => setTimeout(r, 60));
    const text = await metrics.registry.metrics();
    expect(sample(text, `workqueue_adds_total${labels}`)).toBe(2);
    expect(sample(text, `workqueue_depth${labels}`)).toBe(1);
    expect(sample(text, `workqueue_retries_total${labels}`)).toBe(1);
    expect(sample(text, `workqueue_longest_running_processor_seconds${labels}`)).toBeGreaterThanOrEqual(0.05);
    expect(sample(text, `workqueue_unfinished_work_seconds${labels}`)).toBeGreaterThanOrEqual(0.05);
    expect(sample(text, 'workqueue_queue_duration_seconds_count{name="demo",controller="demo"}')).toBe(1);
    queue.done(key!);
    const after = await metrics.registry.metrics();
    expect(sample(after, 'workqueue_work_duration_seconds_count{name="demo",controller="demo"}')).toBe(1);
    expect(sample(after, `workqueue_longest_running_processor_seconds${labels}`)).toBe(0);
    expect(after).toMatch(/^workqueue_work_duration_seconds_bucket\{le="1e-8",name="demo",controller="demo"\} 0$/m);
    expect(after).toMatch(/^workqueue_work_duration_seconds_bucket\{le="1000",name="demo",controller="demo"\} 1$/m);
    queue.shutDown();
  });

  it('reports leader status and Node process metrics', async () => {
    const metrics = createMetrics();
    metrics.leaderStatus('abc.example.com', true);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'leader_election_master_status{name="abc.example.com"}')).toBe(1);
    expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
  });
});
