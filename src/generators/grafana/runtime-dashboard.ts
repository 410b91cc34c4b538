import { SELECTOR, dashboardUid, type Dashboard, type Panel, type Query } from './dashboard.js';

const rate = (metric: string, by: string) => `sum by (${by}) (rate(${metric}{${SELECTOR}}[$__rate_interval]))`;

const quantiles = (histogram: string, by: string, legend: string): Query[] =>
  [0.5, 0.9, 0.99].map((q) => ({
    expr: `histogram_quantile(${q}, sum by (${by}, le) (rate(${histogram}_bucket{${SELECTOR}}[$__rate_interval])))`,
    legend: `${legend} p${Math.round(q * 100)}`,
  }));

const reconciliation: Panel[] = [
  {
    title: 'Reconciles per second',
    description: 'Reconciles finished per second, by controller and result (success, error, requeue, requeue_after).',
    unit: 'ops',
    queries: [{ expr: rate('controller_runtime_reconcile_total', 'controller, result'), legend: '{{controller}} {{result}}' }],
  },
  {
    title: 'Reconcile errors per second',
    description: 'Reconciles that returned or threw an error, and those that gave up for good (terminal errors) or panicked.',
    unit: 'ops',
    queries: [
      { expr: rate('controller_runtime_reconcile_errors_total', 'controller'), legend: '{{controller}} errors' },
      { expr: rate('controller_runtime_terminal_reconcile_errors_total', 'controller'), legend: '{{controller}} terminal' },
      { expr: rate('controller_runtime_reconcile_panics_total', 'controller'), legend: '{{controller}} panics' },
    ],
  },
  {
    title: 'Reconcile duration',
    description: 'How long one reconcile takes: the 50th, 90th and 99th percentile per controller.',
    unit: 's',
    queries: quantiles('controller_runtime_reconcile_time_seconds', 'controller', '{{controller}}'),
  },
  {
    title: 'Busy workers',
    description: 'Reconciles running now against the most the controller runs at once (maxConcurrentReconciles).',
    unit: 'short',
    queries: [
      { expr: `sum by (controller) (controller_runtime_active_workers{${SELECTOR}})`, legend: '{{controller}} active' },
      { expr: `sum by (controller) (controller_runtime_max_concurrent_reconciles{${SELECTOR}})`, legend: '{{controller}} max' },
    ],
  },
];

const workQueue: Panel[] = [
  {
    title: 'Work queue depth',
    description: 'Requests waiting for a worker, per controller queue. A depth that keeps growing means the workers cannot keep up.',
    unit: 'short',
    queries: [{ expr: `sum by (name) (workqueue_depth{${SELECTOR}})`, legend: '{{name}}' }],
  },
  {
    title: 'Work queue adds and retries per second',
    description: 'Requests added to the queue, and those re-added with back-off after an error (retries).',
    unit: 'ops',
    queries: [
      { expr: rate('workqueue_adds_total', 'name'), legend: '{{name}} adds' },
      { expr: rate('workqueue_retries_total', 'name'), legend: '{{name}} retries' },
    ],
  },
  {
    title: 'Time in queue',
    description: 'How long a request waits in the queue before a worker takes it: 50th, 90th and 99th percentile.',
    unit: 's',
    queries: quantiles('workqueue_queue_duration_seconds', 'name', '{{name}}'),
  },
  {
    title: 'Work duration',
    description: 'How long a worker holds a request (the reconcile and its bookkeeping): 50th, 90th and 99th percentile.',
    unit: 's',
    queries: quantiles('workqueue_work_duration_seconds', 'name', '{{name}}'),
  },
  {
    title: 'Unfinished work',
    description: 'Seconds of work in progress that has not finished, and how long the longest-running reconcile has been running. Growth means a stuck reconcile.',
    unit: 's',
    queries: [
      { expr: `sum by (name) (workqueue_unfinished_work_seconds{${SELECTOR}})`, legend: '{{name}} unfinished' },
      { expr: `max by (name) (workqueue_longest_running_processor_seconds{${SELECTOR}})`, legend: '{{name}} longest' },
    ],
  },
];

const leaderElection: Panel[] = [
  {
    title: 'Leader',
    description: 'Per replica and lease: 1 while the replica holds the lease and runs the controllers, 0 while it waits as a backup.',
    unit: 'short',
    queries: [{ expr: `max by (instance, name) (leader_election_master_status{${SELECTOR}})`, legend: '{{instance}} {{name}}' }],
  },
];

const webhooks: Panel[] = [
  {
    title: 'Webhook requests per second',
    description: 'Admission and conversion requests the webhook server answered, by path and HTTP status code, and handlers that failed with a bug (controller-runtime counts these as panics).',
    unit: 'reqps',
    queries: [
      { expr: rate('controller_runtime_webhook_requests_total', 'webhook, code'), legend: '{{webhook}} {{code}}' },
      { expr: rate('controller_runtime_webhook_panics_total', 'job'), legend: 'handler failures' },
    ],
  },
  {
    title: 'Admission responses: allowed and denied',
    description: 'Admission responses per second by webhook and verdict; denied requests are the ones users see refused.',
    unit: 'reqps',
    queries: [
      { expr: rate('controller_runtime_webhook_admission_responses_total', 'webhook, allowed'), legend: '{{webhook}} allowed={{allowed}}' },
    ],
  },
  {
    title: 'Webhook latency',
    description: 'How long the webhook server takes to answer: 50th, 90th and 99th percentile. The API server times out at the webhook\'s timeoutSeconds (10 s by default).',
    unit: 's',
    queries: quantiles('controller_runtime_webhook_latency_seconds', 'webhook', '{{webhook}}'),
  },
  {
    title: 'Webhook requests in flight',
    description: 'Requests being served right now, by path.',
    unit: 'short',
    queries: [{ expr: `sum by (webhook) (controller_runtime_webhook_requests_in_flight{${SELECTOR}})`, legend: '{{webhook}}' }],
  },
];

const apiServer: Panel[] = [
  {
    title: 'API server requests per second',
    description: 'Requests the manager sent to the Kubernetes API server, by HTTP status code and method. 429s mean API Priority and Fairness is throttling it.',
    unit: 'reqps',
    queries: [{ expr: rate('rest_client_requests_total', 'code, method'), legend: '{{method}} {{code}}' }],
  },
  {
    title: 'Informers healthy',
    description: 'Per watched kind: 1 while its informer has synced and its watch is open, 0 while it fails to list or watch.',
    unit: 'short',
    queries: [{ expr: `min by (kind) (opgen_informer_healthy{${SELECTOR}})`, legend: '{{kind}}' }],
  },
];

const sharding: Panel[] = [
  {
    title: 'Objects per shard',
    description: 'With --shard-ring: the objects each replica holds (its shard-selected cache). Even bars mean the ring spreads the load; a bar at 0 is a replica that took no share.',
    unit: 'short',
    queries: [{ expr: `sum by (ring, shard) (opgen_shard_objects{${SELECTOR}})`, legend: '{{ring}} {{shard}}' }],
  },
  {
    title: 'Rebalances',
    description: 'Shard label moves the sharder made per second (assign: new objects; reassign: their shard\'s Lease expired; drain: handed off a live shard as the ring changed), and handovers each shard acknowledged.',
    unit: 'ops',
    queries: [
      { expr: rate('opgen_sharder_moves_total', 'ring, move'), legend: '{{ring}} {{move}}' },
      { expr: rate('opgen_shard_drained_total', 'ring, shard'), legend: '{{ring}} {{shard}} handed over' },
      { expr: `max by (ring) (opgen_sharder_live_shards{${SELECTOR}})`, legend: '{{ring}} live shards' },
    ],
  },
];

/**
 * The controller-runtime dashboard: reconciles, work queues, leader election, webhooks,
 * the manager's API server traffic and sharding, from the series @opgen/runtime exports under
 * controller-runtime's and client-go's names.
 */
export function runtimeDashboard(projectName: string): Dashboard {
  return {
    title: `${projectName}: controller runtime`,
    uid: dashboardUid(projectName, 'runtime'),
    tags: ['opgen', projectName],
    rows: [
      { title: 'Reconciliation', panels: reconciliation },
      { title: 'Work queue', panels: workQueue },
      { title: 'Leader election', panels: leaderElection },
      { title: 'Webhooks', panels: webhooks },
      { title: 'Kubernetes API', panels: apiServer },
      { title: 'Sharding', panels: sharding },
    ],
  };
}
