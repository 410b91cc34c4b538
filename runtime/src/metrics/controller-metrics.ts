import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** How a reconcile ended, as the `result` label of `controller_runtime_reconcile_total`. */
export type ReconcileOutcome = 'success' | 'error' | 'requeue' | 'requeue_after';

const OUTCOMES: readonly ReconcileOutcome[] = ['success', 'error', 'requeue', 'requeue_after'];

/** controller-runtime's buckets for `controller_runtime_reconcile_time_seconds`. */
const RECONCILE_TIME_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5,
  1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/** The `controller_runtime_*` instruments of one controller. */
export interface ControllerMetrics {
  /** A reconcile finished after `seconds` with `outcome`. */
  reconciled(outcome: ReconcileOutcome, seconds: number): void;
  /** The reconciler failed (returned or threw an error, terminal or not). */
  errored(): void;
  /** The error was terminal: the key is not retried. */
  terminal(): void;
  /** The reconciler threw a programming fault (the analogue of a Go panic). */
  panicked(): void;
  /** A worker started (+1) or finished (-1) a reconcile. */
  activeWorkers(delta: 1 | -1): void;
}

/** The controller-runtime metric families, registered once per registry. */
export interface ControllerMetricFamilies {
  /** The series of controller `name`, every one exposed at zero from the start. */
  forController(name: string, maxConcurrentReconciles: number): ControllerMetrics;
}

export function registerControllerMetrics(registry: Registry): ControllerMetricFamilies {
  const registers = [registry];
  const total = new Counter({
    name: 'controller_runtime_reconcile_total',
    help: 'Total number of reconciliations per controller',
    labelNames: ['controller', 'result'] as const,
    registers,
  });
  const errors = new Counter({
    name: 'controller_runtime_reconcile_errors_total',
    help: 'Total number of reconciliation errors per controller',
    labelNames: ['controller'] as const,
    registers,
  });
  const terminalErrors = new Counter({
    name: 'controller_runtime_terminal_reconcile_errors_total',
    help: 'Total number of terminal reconciliation errors per controller',
    labelNames: ['controller'] as const,
    registers,
  });
  const panics = new Counter({
    name: 'controller_runtime_reconcile_panics_total',
    help: 'Total number of reconciliation panics per controller',
    labelNames: ['controller'] as const,
    registers,
  });
  const time = new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Length of time per reconciliation per controller',
    labelNames: ['controller'] as const,
    buckets: RECONCILE_TIME_BUCKETS,
    registers,
  });
  const maxConcurrent = new Gauge({
    name: 'controller_runtime_max_concurrent_reconciles',
    help: 'Maximum number of concurrent reconciles per controller',
    labelNames: ['controller'] as const,
    registers,
  });
  const active = new Gauge({
    name: 'controller_runtime_active_workers',
    help: 'Number of currently used workers per controller',
    labelNames: ['controller'] as const,
    registers,
  });

  return {
    forController(controller, maxConcurrentReconciles) {
      // Like controller-runtime, expose every series at zero from the start so rate()
      // queries work before the first error.
      for (const result of OUTCOMES) total.inc({ controller, result }, 0);
      errors.inc({ controller }, 0);
      terminalErrors.inc({ controller }, 0);
      panics.inc({ controller }, 0);
      active.set({ controller }, 0);
      maxConcurrent.set({ controller }, maxConcurrentReconciles);
      return {
        reconciled(result, seconds) {
          total.inc({ controller, result });
          time.observe({ controller }, seconds);
        },
        errored: () => errors.inc({ controller }),
        terminal: () => terminalErrors.inc({ controller }),
        panicked: () => panics.inc({ controller }),
        activeWorkers: (delta) => active.inc({ controller }, delta),
      };
    },
  };
}
