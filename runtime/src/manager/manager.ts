import { createCache, type InformerHealth } from '../cache/index.js';
import { createClient } from '../client/index.js';
import { createCluster, type Cluster } from '../rest/cluster.js';
import { createEventRecorder, type EventRecorder } from '../events/index.js';
import { createLogger, type Logger } from '../log/index.js';
import { createMetrics } from '../metrics/index.js';
import { parseBindAddress } from '../http/bind-address.js';
import { listen, type HttpServer } from '../http/http-server.js';
import { loadKubeConfig } from '../rest/load-kubeconfig.js';
import { campaign } from './leader.js';
import { metricsSecurity, serveMetrics } from './metrics-server.js';
import type { ManagerOptions } from './options.js';
import { probesHandler, type Checks } from './probes.js';
import { onShutdownSignals } from './signals.js';
import type { Manager, Runnable } from './types.js';
import { settleBy, untilAborted } from './wait.js';
import { waitForCacheSync } from './cache-sync.js';
import { cacheReadinessChecks } from './readiness.js';
import { convertedKinds } from '../webhook/conversion.js';
import { managedWebhookServer } from '../webhook/managed-server.js';
import type { WebhookServer } from '../webhook/server.js';
import { createFleet } from '../multicluster/fleet.js';
import { createShardReplica, shardIdFor, type ShardingOptions } from '../sharding/replica.js';
import { noteResponseCode } from '../observe/reconcile-records.js';
import { exportReconcileSpans, otlpEndpointInEnvironment, otlpTracesUrl, type ReconcileSpanExport } from '../observe/otlp.js';

/** How long a shutdown waits at least for the last spans to reach the collector. */
const TRACE_FLUSH_MS = 5_000;

interface Registered {
  name: string;
  run: Runnable;
  leader: boolean;
  /** Runs from the cache's start, on standby replicas too (a controller's queue and sources). */
  warmup?: (signal: AbortSignal) => void;
}

/** Creates a manager; see {@link ManagerOptions} and `managerOptionsFromArgs`. */
export function createManager(options: ManagerOptions = {}): Manager {
  const log = createLogger({ format: options.logFormat, level: options.logLevel, destination: options.logDestination });
  const cluster = managerCluster(options, log);
  const metricsBind = parseBindAddress(options.metricsBindAddress ?? '0');
  const probeBind = parseBindAddress(options.healthProbeBindAddress ?? '0');
  const leaderElectionId = options.leaderElection ? options.leaderElectionId : undefined;
  if (options.leaderElection && !leaderElectionId) {
    throw new Error('leader election needs leaderElectionId, the name of its Lease (e.g. "abc123.example.com")');
  }
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const gracefulMs = options.gracefulShutdownTimeoutMs ?? 30_000;
  // Checked now: a bad endpoint stops the process before it does anything.
  if (options.otlpEndpoint !== undefined) otlpTracesUrl(options.otlpEndpoint);
  const tracingOn = options.otlpEndpoint !== undefined || otlpEndpointInEnvironment();
  const metrics = createMetrics();
  // Every request of the manager goes through the cluster's one transport: client, events,
  // cache lists, leader election, access reviews, built-in certificates. Its bucket
  // (`--kube-api-qps`) then bounds the process as a whole, and its metrics count everything.
  cluster.observe(metrics.restClient(cluster.host));
  // The status of each response, for the reconcile records of whoever listens (see observe/).
  cluster.observe({ response: (_method, code) => noteResponseCode(code), retry: () => undefined });
  // The cluster's time: real time, or a memory cluster's fake clock, so that requeues,
  // backoff, resyncs and leases run on the time the server stamps its objects with.
  const clock = cluster.clock;
  // `--shard-ring` alone shards by the first controller's kinds.
  const sharding: ShardingOptions | undefined =
    options.sharding ?? (options.shardRing ? { ring: options.shardRing, shardId: options.shardId, mode: options.shardMode } : undefined);
  const shardId = sharding ? shardIdFor(sharding) : undefined;
  if (sharding && options.clusters) throw new Error('createManager: sharding and clusters do not combine yet: give one of them');
  // A shard's informers of the sharded kinds select its label: its cache holds its share only.
  const byKind = [...(options.cacheByKind ?? [])];
  const cache = createCache(cluster, { namespace: options.namespace, logger: log.child({ logger: 'cache' }), byKind, resyncPeriodMs: options.syncPeriodMs });
  const client = createClient(cluster, {
    cache,
    logger: log.child({ logger: 'client' }),
    ...(options.fieldManager ? { fieldManager: options.fieldManager } : {}),
    ...(options.readYourWritesMs !== undefined ? { readYourWritesMs: options.readYourWritesMs } : {}),
  });
  // Aborts the reconciles' API calls: when the lease is lost, or the graceful shutdown timed out.
  const cancelReconciles = new AbortController();
  // Whether this process may still act as leader, checked right before each reconcile and
  // each of its API calls; replaced by the elector's monotonic-clock fence once elected.
  let stillLeading = (): boolean => true;
  // Changes a standby saw before this were the previous leader's to serve: it was seen
  // renewing the lease at most a lease duration and one jittered retry (× 2.2) before the
  // takeover. Later ones are served first; undefined without leader election: all first.
  let changesSince: number | undefined;
  const recorders = new Map<string, EventRecorder>();

  const shards =
    sharding &&
    createShardReplica(sharding, shardId!, {
      cluster,
      cache,
      byKind,
      log,
      metrics,
      timing: { leaseDurationMs: options.leaseDurationMs ?? 15_000, renewDeadlineMs: options.renewDeadlineMs ?? 10_000, retryPeriodMs: options.retryPeriodMs ?? 2_000 },
      namespace: options.leaderElectionNamespace,
      onLost: () => {
        exit(1);
        stop();
      },
    });

  const registered: Registered[] = [];
  const extraServers: Array<() => Promise<{ close(): Promise<void> }>> = [];
  const names = new Set<string>();
  let cacheSynced = false;
  const healthz: Checks = new Map([['ping', () => {}]]);
  metrics.informers(() => cache.health());
  let cacheStarted = false;
  const readyz: Checks = cacheReadinessChecks({
    cache,
    started: () => cacheStarted,
    synced: () => cacheSynced,
    selfConverted: () => (webhookServer ? convertedKinds(webhookServer.conversions) : new Set()),
  });

  if (shards) readyz.set(`sharder-${sharding!.ring}`, shards.sharderReady);

  let started = false;
  /** Runs what is registered once the manager runs: set by start() while it takes work. */
  let launchLate: ((runnable: Registered) => void) | undefined;
  const register = (runnable: Registered): void => {
    if (started && !launchLate) throw new Error(`cannot add "${runnable.name}": the manager is stopping or has stopped`);
    registered.push(runnable);
    launchLate?.(runnable);
  };
  const stopRequest = new AbortController();
  let markElected!: () => void;
  const electedPromise = new Promise<void>((resolve) => (markElected = resolve));
  let metricsAddress: string | undefined;
  let healthProbeAddress: string | undefined;

  function stop(): void {
    stopRequest.abort();
  }
  for (const r of shards ? shards.runnables : []) register({ ...r, leader: false });
  // A fleet's clusters are engaged on every replica, so that a standby's caches are warm.
  const fleet =
    options.clusters &&
    createFleet({ local: { cluster, client, cache }, log, metrics, fieldManager: options.fieldManager, readYourWritesMs: options.readYourWritesMs, resyncPeriodMs: options.syncPeriodMs });
  if (fleet) register({ name: `cluster-provider-${options.clusters!.name}`, run: (signal) => fleet.run(options.clusters!, signal), leader: false });
  let webhookServer: WebhookServer | undefined;

  async function start(): Promise<void> {
    if (started) throw new Error('a manager can be started only once');
    started = true;
    const removeSignals =
      options.handleSignals === false
        ? () => {}
        : onShutdownSignals(
            (signal) => {
              log.info({ signal }, 'Received signal, stopping: in-flight reconciles may finish');
              stop();
            },
            (signal) => {
              log.error({ signal }, 'Received second signal, exiting at once');
              exit(1);
            },
          );

    let failure: unknown;
    let leaseLost = false;
    const fail = (error: unknown): void => {
      failure ??= error;
      stop();
    };
    const servers: Array<Pick<HttpServer, 'close'>> = [];
    const cacheStop = new AbortController();
    const leaderStop = new AbortController();
    const othersStop = new AbortController();
    const leaderRuns: Promise<void>[] = [];
    const otherRuns: Promise<void>[] = [];
    let election: Promise<void> | undefined;
    const electionStop = new AbortController();
    const electionAbandon = new AbortController();
    let tracing: ReconcileSpanExport | undefined;

    const launch = (runnable: Registered, signal: AbortSignal, into: Promise<void>[]): void => {
      into.push(
        (async () => runnable.run(signal))().catch((error: unknown) => {
          log.error({ err: error, runnable: runnable.name }, 'Runnable failed, stopping the manager');
          fail(error);
        }),
      );
    };
    let leading = false;
    // Added after start(): run at once (leader work only once elected), as controller-runtime does.
    launchLate = (r) => {
      r.warmup?.(othersStop.signal);
      if (!r.leader) launch(r, othersStop.signal, otherRuns);
      else if (leading) launch(r, leaderStop.signal, leaderRuns);
    };
    const startLeaderWork = (signal: AbortSignal): void => {
      leading = true;
      for (const r of registered) if (r.leader) launch(r, signal, leaderRuns);
      markElected();
    };

    try {
      if (probeBind) {
        const server = await listen(probeBind, probesHandler({ healthz, readyz, stopping: stopRequest.signal }));
        servers.push(server);
        healthProbeAddress = server.address;
        log.info({ bindAddress: server.address }, 'Serving health probes');
      }
      if (metricsBind) {
        const secure = options.metricsSecure === true;
        const server = await serveMetrics(metricsBind, metrics.registry, secure ? metricsSecurity(cluster, options, log) : undefined);
        servers.push(server);
        metricsAddress = server.address;
        log.info({ bindAddress: server.address, secure }, 'Serving metrics');
      }
      for (const startServer of extraServers) servers.push(await startServer());
      // Before the first reconcile: every one is a span.
      if (tracingOn) {
        tracing = await exportReconcileSpans({ endpoint: options.otlpEndpoint, log: log.child({ logger: 'tracing' }) });
        log.info({ endpoint: options.otlpEndpoint ?? 'from OTEL_EXPORTER_OTLP_*' }, 'Exporting reconcile spans');
      }
      // The sharded kinds' informers select by the mode: decided before they list.
      if (shards) await shards.prepare(stopRequest.signal);
      cache.start(cacheStop.signal);
      // Controllers queue their events from now on, while this process may still wait to lead.
      for (const r of registered) r.warmup?.(othersStop.signal);
      for (const r of registered) if (!r.leader) launch(r, othersStop.signal, otherRuns);
      cacheStarted = true;

      const stalledMs = options.cacheSyncTimeoutMs ?? 120_000;
      const synced = await waitForCacheSync(cache, stalledMs, log, stopRequest.signal);
      if (synced === false) throw new Error(`the cache made no progress syncing for ${stalledMs} ms: ${unsyncedReasons(cache.health())}`);
      if (synced === true) {
        cacheSynced = true;
        log.info('Caches synced');
        if (shards) {
          // Every replica reconciles its own share, fenced by its own shard Lease.
          await untilAborted(shards.joined, stopRequest.signal);
          stillLeading = shards.alive;
          log.info({ shard: shards.shard, ring: sharding!.ring }, 'Reconciling this shard');
          if (!stopRequest.signal.aborted) startLeaderWork(leaderStop.signal);
        } else if (leaderElectionId) {
          election = campaign({
            cluster,
            options,
            leaseName: leaderElectionId,
            log: log.child({ logger: 'leader-election' }),
            metrics,
            signal: electionStop.signal,
            abandon: electionAbandon.signal,
            onLeading: (leaseSignal, fence, { previousHolderSeenAt }) => {
              stillLeading = fence;
              // The last holder may have stopped right after its last renewal this process saw
              // (seen up to a jittered retry period late), or, failing that, a Lease duration
              // before now. A takeover slowed by load comes later than the Lease duration after
              // that renewal: the changes between them were missed too.
              const slack = 2.2 * (options.retryPeriodMs ?? 2_000);
              changesSince = Math.min(clock.now() - (options.leaseDurationMs ?? 15_000), previousHolderSeenAt ?? Infinity) - slack;
              leaseSignal.addEventListener(
                'abort',
                () => {
                  cancelReconciles.abort(new Error('leadership lost'));
                  leaderStop.abort();
                },
                { once: true },
              );
              startLeaderWork(leaderStop.signal);
            },
            onLost: () => {
              leaseLost = true;
              log.error({ lease: leaderElectionId }, 'Leader election lost, exiting');
              exit(1);
              fail(new Error(`leader election lost: lease ${leaderElectionId}`));
            },
          }).catch((error: unknown) => fail(error));
        } else {
          startLeaderWork(leaderStop.signal);
        }
      }
      if (!stopRequest.signal.aborted) {
        await new Promise((resolve) => stopRequest.signal.addEventListener('abort', resolve, { once: true }));
      }
    } catch (error) {
      failure ??= error;
    }

    launchLate = undefined;
    // Shutdown, in controller-runtime's order: controllers first (while still holding the
    // lease, so no other replica starts meanwhile), then the election, then the rest.
    const deadline = performance.now() + (leaseLost ? 0 : gracefulMs);
    log.info('Stopping and waiting for controllers to finish in-flight reconciles');
    leaderStop.abort();
    const finished = await settleBy(leaderRuns, deadline);
    if (finished) {
      // Only now may another replica lead: release (or stop renewing) the lease.
      electionStop.abort();
      if (election) await settleBy([election], deadline);
    } else if (!leaseLost) {
      // Reconciles are still running: cancel their API calls.
      cancelReconciles.abort(new Error('graceful shutdown timed out'));
      // Stop renewing: the lease expires by itself, and no renewal outlives the shutdown.
      electionAbandon.abort();
      failure ??= new Error(`graceful shutdown timed out after ${gracefulMs} ms with reconciles still running`);
      log.error({ timeoutMs: gracefulMs }, 'Graceful shutdown timed out');
    }
    othersStop.abort();
    await settleBy([...otherRuns, ...[...recorders.values()].map((r) => r.flush())], deadline);
    // The last reconciles' spans: sent even when the shutdown used up its time, briefly.
    if (tracing) await settleBy([tracing.stop()], Math.max(deadline, performance.now() + TRACE_FLUSH_MS));
    cacheStop.abort();
    await Promise.all(servers.map((s) => s.close()));
    removeSignals();
    log.info('Manager stopped');
    // What a runnable threw, as it threw it: the caller's `catch` sees the original.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (failure !== undefined) throw failure;
  }

  return {
    cluster,
    kubeConfig: cluster.kubeConfig,
    clock,
    client,
    cache,
    log,
    metrics,
    rateLimiter: cluster.rateLimiter,
    ...(shards ? { shardGate: shards.gate } : {}),
    ...(fleet ? { fleet, clusters: fleet.clusters } : {}),
    eventRecorder(component) {
      let recorder = recorders.get(component);
      if (!recorder) {
        recorder = createEventRecorder(client, { reportingController: component, logger: log.child({ logger: 'events' }), now: () => clock.wall() });
        recorders.set(component, recorder);
      }
      return recorder;
    },
    addController(controller) {
      if (names.has(controller.name)) {
        throw new Error(`a controller named "${controller.name}" already exists: give one of them another name`);
      }
      const warmup = controller.warmup?.bind(controller);
      register({
        name: controller.name,
        run: (signal) => controller.run(signal, { cancel: cancelReconciles.signal, fence: () => stillLeading(), ...(changesSince !== undefined ? { changesSince } : {}) }),
        leader: true,
        ...(warmup ? { warmup } : {}),
      });
      names.add(controller.name);
    },
    addRunnable(runnable, runnableOptions = {}) {
      register({ name: runnable.name || 'runnable', run: runnable, leader: runnableOptions.needLeaderElection !== false });
    },
    addServer(startServer) {
      extraServers.push(startServer);
    },
    webhookServer(webhookOptions) {
      if (webhookServer) {
        if (webhookOptions) throw new Error('the webhook server of this manager is already configured: call serveWebhooks before webhook() and conversion()');
        return webhookServer;
      }
      const managed = managedWebhookServer({ cluster, log, metrics, cache, stopping: stopRequest.signal }, { tls: options.tls, ...webhookOptions });
      webhookServer = managed.server;
      extraServers.push(() => managed.start());
      readyz.set('webhook', () => managed.server.ready());
      register({ name: 'webhook-conversion-check', run: (signal) => managed.watchConversions(signal), leader: false });
      return webhookServer;
    },
    addHealthzCheck(name, check) {
      healthz.set(name, check);
    },
    addReadyzCheck(name, check) {
      readyz.set(name, check);
    },
    removeHealthzCheck(name) {
      return healthz.delete(name);
    },
    removeReadyzCheck(name) {
      return readyz.delete(name);
    },
    stopping: stopRequest.signal,
    start,
    stop,
    elected: () => electedPromise,
    get metricsAddress() {
      return metricsAddress;
    },
    get healthProbeAddress() {
      return healthProbeAddress;
    },
  };
}

/** The given cluster, or one built from the kubeconfig and rate limit the options name. */
function managerCluster(options: ManagerOptions, log: Logger): Cluster {
  if (!options.cluster) {
    return createCluster(options.kubeConfig ?? loadKubeConfig(options.kubeconfigPath), { qps: options.qps, burst: options.burst, logger: log.child({ logger: 'rest' }) });
  }
  const conflicting = (['kubeConfig', 'kubeconfigPath', 'qps', 'burst'] as const).filter((key) => options[key] !== undefined);
  if (conflicting.length > 0) throw new Error(`createManager: ${conflicting.join(', ')} belong to the cluster: give them to createCluster, or leave cluster out`);
  return options.cluster;
}

/** Why informers have not synced, from what each last saw: a 403 reads as a 403. */
function unsyncedReasons(health: InformerHealth[]): string {
  return health
    .filter((h) => !h.synced)
    .map((h) => `${h.kind}: ${h.lastError ?? 'no answer yet'}`)
    .join('; ');
}
