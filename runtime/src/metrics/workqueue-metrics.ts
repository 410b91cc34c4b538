import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { InFlight, WorkQueueMetrics } from '../queue/index.js';

/** client-go's buckets for the queue histograms: 10 ns to 1000 s, ×10 each. */
const QUEUE_BUCKETS = Array.from({ length: 12 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)));

/** The `workqueue_*` metric families, registered once per registry. */
export interface WorkQueueMetricFamilies {
  /**
   * Hooks for the queue `name`; `inFlight` is read at scrape time for the unfinished-work
   * and longest-running gauges.
   */
  forQueue(name: string, inFlight: () => InFlight): WorkQueueMetrics;
}

export function registerWorkQueueMetrics(registry: Registry): WorkQueueMetricFamilies {
  const registers = [registry];
  const labelNames = ['name', 'controller'] as const;
  const queues = new Map<string, () => InFlight>();

  const depth = new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue',
    labelNames,
    registers,
  });
  const adds = new Counter({
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by workqueue',
    labelNames,
    registers,
  });
  const latency = new Histogram({
    name: 'workqueue_queue_duration_seconds',
    help: 'How long in seconds an item stays in workqueue before being requested',
    labelNames,
    buckets: QUEUE_BUCKETS,
    registers,
  });
  const work = new Histogram({
    name: 'workqueue_work_duration_seconds',
    help: 'How long in seconds processing an item from workqueue takes.',
    labelNames,
    buckets: QUEUE_BUCKETS,
    registers,
  });
  new Gauge({
    name: 'workqueue_unfinished_work_seconds',
    help:
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. " +
      'Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at ' +
      'which this increases.',
    labelNames,
    registers,
    collect() {
      for (const [name, read] of queues) this.set({ name, controller: name }, read().unfinishedWorkSeconds);
    },
  });
  new Gauge({
    name: 'workqueue_longest_running_processor_seconds',
    help: 'How many seconds has the longest running processor for workqueue been running.',
    labelNames,
    registers,
    collect() {
      for (const [name, read] of queues) this.set({ name, controller: name }, read().longestRunningProcessorSeconds);
    },
  });
  const retries = new Counter({
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by workqueue',
    labelNames,
    registers,
  });

  return {
    forQueue(name, inFlight) {
      const labels = { name, controller: name };
      queues.set(name, inFlight);
      depth.set(labels, 0);
      adds.inc(labels, 0);
      retries.inc(labels, 0);
      return {
        added: () => adds.inc(labels),
        depth: (n) => depth.set(labels, n),
        handedOut: (s) => latency.observe(labels, s),
        finished: (s) => work.observe(labels, s),
        retried: () => retries.inc(labels),
      };
    },
  };
}
