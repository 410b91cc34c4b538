import { SELECTOR, dashboardUid, type Dashboard, type Panel } from './dashboard.js';

const manager: Panel[] = [
  {
    title: 'CPU',
    description: 'CPU seconds used per second by the manager process (1 = one full core), user and system together.',
    unit: 'short',
    queries: [{ expr: `sum by (instance) (rate(process_cpu_seconds_total{${SELECTOR}}[$__rate_interval]))`, legend: '{{instance}}' }],
  },
  {
    title: 'Memory',
    description: 'Resident memory of the manager process: what counts against the container\'s memory limit.',
    unit: 'bytes',
    queries: [{ expr: `sum by (instance) (process_resident_memory_bytes{${SELECTOR}})`, legend: '{{instance}}' }],
  },
  {
    title: 'JavaScript heap',
    description: 'V8 heap in use and allocated. Used heap that only grows across garbage collections points to a leak (an unbounded cache or watch).',
    unit: 'bytes',
    queries: [
      { expr: `sum by (instance) (nodejs_heap_size_used_bytes{${SELECTOR}})`, legend: '{{instance}} used' },
      { expr: `sum by (instance) (nodejs_heap_size_total_bytes{${SELECTOR}})`, legend: '{{instance}} total' },
    ],
  },
  {
    title: 'Event loop lag',
    description: 'How late timers and I/O callbacks run (99th percentile). The whole manager shares one thread: lag delays every reconcile, watch and lease renewal.',
    unit: 's',
    queries: [{ expr: `max by (instance) (nodejs_eventloop_lag_p99_seconds{${SELECTOR}})`, legend: '{{instance}} p99' }],
  },
  {
    title: 'Open file descriptors',
    description: 'Sockets and files the process holds open.',
    unit: 'short',
    queries: [{ expr: `sum by (instance) (process_open_fds{${SELECTOR}})`, legend: '{{instance}}' }],
  },
  {
    title: 'Uptime',
    description: 'Seconds since the process started; a drop to zero is a restart.',
    unit: 's',
    queries: [{ expr: `time() - max by (instance) (process_start_time_seconds{${SELECTOR}})`, legend: '{{instance}}' }],
  },
];

/** The resources dashboard: the manager process's CPU, memory, heap and event loop. */
export function resourcesDashboard(projectName: string): Dashboard {
  return {
    title: `${projectName}: resources`,
    uid: dashboardUid(projectName, 'resources'),
    tags: ['opgen', projectName],
    rows: [{ title: 'Manager process', panels: manager }],
  };
}
