import type { KubeConfig } from '../rest/kubeconfig.js';
import type { Cache } from '../cache/index.js';
import type { Cluster } from '../rest/cluster.js';
import type { Client, TokenBucket } from '../client/index.js';
import type { ClusterSet, Controller, ControllerHost } from '../controller/types.js';
import type { EventRecorder } from '../events/index.js';
import type { Logger } from '../log/index.js';
import type { Metrics } from '../metrics/index.js';
import type { WebhookServerOptions } from '../webhook/managed-server.js';
import type { WebhookServer } from '../webhook/server.js';
import type { Check } from './probes.js';
import type { Clock } from '../time/clock.js';

/** Extra work a manager runs: it should return (or resolve) once `signal` aborts. */
export type Runnable = (signal: AbortSignal) => void | Promise<void>;

/** Options of {@link Manager.addRunnable}. */
export interface RunnableOptions {
  /** Run only while this process leads (the default, as in controller-runtime); false runs it always. */
  needLeaderElection?: boolean;
}

/**
 * Owns what an operator process shares: one client, one cache, metrics, probes, leader
 * election and the controllers. Create it, declare controllers on it with `controller(mgr)`,
 * then `await mgr.start()`.
 */
export interface Manager extends ControllerHost {
  /**
   * The one connection every request of the manager goes through (client, cache, leader
   * election, events, access reviews, built-in certificates); build your own clients on it
   * (`createClient(mgr.cluster)`) so that they share its rate limit and request metrics.
   */
  readonly cluster: Cluster;
  /** The cluster's kubeconfig; undefined for a cluster on a transport of its own (in-process). */
  readonly kubeConfig: KubeConfig | undefined;
  /**
   * The time the manager's queues, requeues, resyncs and leader election run on: its
   * cluster's clock (real time, or a memory cluster's fake clock). Stamp times your
   * reconciles write with `clock.wall()` to keep them on the same time in tests.
   */
  readonly clock: Clock;
  readonly client: Client;
  readonly cache: Cache;
  readonly log: Logger;
  readonly metrics: Metrics;
  /**
   * The one client-side token bucket of `qps` / `burst` (`--kube-api-qps`), which every
   * request of the manager takes from; undefined when off. The same as `cluster.rateLimiter`:
   * a client or cache built on `mgr.cluster` takes from it.
   */
  readonly rateLimiter: TokenBucket | undefined;
  /**
   * The engaged clusters of a manager with a cluster provider (`clusters` of its options);
   * undefined otherwise.
   *
   * @example
   * await mgr.elected();
   * console.log(mgr.clusters?.names());
   */
  readonly clusters?: ClusterSet;
  /** Records Kubernetes Events as `component` (e.g. a controller's name). */
  eventRecorder(component: string): EventRecorder;
  addController(controller: Controller): void;
  /** Adds work that starts with the manager (by default only while leading) and stops with it. */
  addRunnable(runnable: Runnable, options?: RunnableOptions): void;
  /**
   * Adds a server every replica runs, started before the caches (a conversion webhook must
   * answer the informers' first list) and closed last; `start` resolves once it listens.
   */
  addServer(start: () => Promise<{ close(): Promise<void> }>): void;
  /**
   * The manager's webhook server, which `webhook(mgr)`, `conversion(mgr)` and
   * `serveWebhooks(mgr, options)` serve on. Created on the first call, with `options` (a later
   * call with options throws: the server is configured once), and owned by the manager from
   * then on: started with it before the caches on every replica, checked by `/readyz/webhook`,
   * drained and closed last.
   *
   * @example
   * const server = mgr.webhookServer({ port: 9443, certificate: { dir: '/certs' } });
   * await mgr.elected();
   * console.log(server.url);
   */
  webhookServer(options?: WebhookServerOptions): WebhookServer;
  /** Adds (or replaces) a `/healthz` check; `/healthz` starts with `ping`. */
  addHealthzCheck(name: string, check: Check): void;
  /**
   * Adds (or replaces) a `/readyz` check. `/readyz` starts with `cache-sync` (the caches
   * have synced) and `informers` (their watches are open); `serveWebhooks` adds `webhook`.
   * `/readyz/<name>` runs one check alone. The built-in checks never wait on a kind whose
   * conversion webhook this process serves: the API server lists that kind through this
   * process, which the Service routes to only once it is ready, so plain `/readyz` and
   * `/readyz/webhook` both work as the probe of an operator converting its own CRDs. A
   * check added here must not wait on such a kind's cache either.
   *
   * @example
   * mgr.addReadyzCheck('upstream', async () => {
   *   const response = await fetch('http://upstream.example/healthz');
   *   if (!response.ok) throw new Error(`upstream answered ${response.status}`);
   * });
   */
  addReadyzCheck(name: string, check: Check): void;
  /**
   * Removes a `/healthz` check by name; false when there was none.
   *
   * @example
   * mgr.removeHealthzCheck('ping');
   */
  removeHealthzCheck(name: string): boolean;
  /**
   * Removes a `/readyz` check by name, the built-in ones included; false when there was none.
   *
   * @example
   * // Ready as soon as the webhook server serves, as kubebuilder's scaffold is.
   * mgr.removeReadyzCheck('cache-sync');
   */
  removeReadyzCheck(name: string): boolean;
  /**
   * Aborted once the manager begins to stop (`stop()`, SIGTERM or SIGINT, a failure). From
   * then on `/readyz` fails; servers keep serving until the manager closes them last.
   */
  readonly stopping: AbortSignal;
  /**
   * Serves probes and metrics, starts the cache, waits for it to sync, then (once elected,
   * with leader election) runs the controllers. Their queues and event sources start with
   * the cache, so a standby replica is warm: after it takes the lease it reconciles at once,
   * changes the previous leader may have missed first. Resolves after a graceful stop (`stop()`,
   * SIGTERM or SIGINT); rejects when something failed (a controller could not start, the
   * lease was lost, shutdown exceeded its timeout). After a rejection the process should
   * exit non-zero at once, as `main` does in Go: reconciles still running keep Node alive.
   */
  start(): Promise<void>;
  /** Stops like SIGTERM does: no new work, signals aborted, in-flight reconciles finish. */
  stop(): void;
  /** Resolves once this process runs its controllers (at once without leader election). */
  elected(): Promise<void>;
  /** The `/metrics` address once started (`host:port`), when enabled. */
  readonly metricsAddress: string | undefined;
  /** The probes' address once started (`host:port`), when enabled. */
  readonly healthProbeAddress: string | undefined;
}
