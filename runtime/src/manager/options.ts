import type { KubeConfig } from '../rest/kubeconfig.js';
import type { LevelWithSilent } from 'pino';
import type { KindCache } from '../cache/index.js';
import type { Cluster } from '../rest/cluster.js';
import type { LoggerOptions, LogFormat } from '../log/index.js';
import type { ShardingOptions } from '../sharding/replica.js';
import type { ClusterProvider } from '../multicluster/provider.js';
import type { TlsSettings } from '../http/tls.js';

/** Options of `createManager`. Durations are in milliseconds. */
export interface ManagerOptions {
  /**
   * The one connection every request of the manager goes through (see `createCluster` in
   * `@opgen/runtime/rest`), e.g. one on an in-process transport; not together with
   * `kubeConfig`, `kubeconfigPath`, `qps` or `burst`, which build one otherwise.
   */
  cluster?: Cluster;
  /** The cluster to talk to; default: loaded from `kubeconfigPath`, `KUBECONFIG`, in-cluster or `~/.kube/config`. */
  kubeConfig?: KubeConfig;
  /** A kubeconfig file (the `--kubeconfig` flag). */
  kubeconfigPath?: string;
  /** Watch and cache namespaced kinds in this namespace only; default all namespaces. */
  namespace?: string;
  /**
   * How particular kinds are cached (controller-runtime's `cache.Options.ByObject`): label
   * and field selectors, metadata only, a transform. E.g. owned Secrets by a label:
   * `[{ kind: kinds.Secret, labelSelector: 'app.kubernetes.io/managed-by=my-operator' }]`.
   */
  cacheByKind?: KindCache[];
  /** Reconcile every cached object again this often, even unchanged (controller-runtime's `SyncPeriod`); off by default. */
  syncPeriodMs?: number;
  /** `/metrics` address, e.g. `:8443`; `0` (the default) turns it off. */
  metricsBindAddress?: string;
  /**
   * Serve `/metrics` over HTTPS, only to callers whose bearer token the API server accepts
   * (TokenReview) and who may `get` the non-resource URL `/metrics` (SubjectAccessReview),
   * like controller-runtime's `filters.WithAuthenticationAndAuthorization`. The operator's
   * own identity then needs `create` on `tokenreviews` and `subjectaccessreviews`.
   * Default false here, as in controller-runtime; `managerOptionsFromArgs` defaults it to
   * true, as kubebuilder's `main.go` defaults `--metrics-secure`.
   */
  metricsSecure?: boolean;
  /**
   * Directory holding the metrics server's certificate and key (`--metrics-cert-path`),
   * e.g. a mounted cert-manager Secret; they are re-read when they change. Default: a
   * self-signed certificate made at start. Used only with `metricsSecure`.
   */
  metricsCertPath?: string;
  /** The certificate's file name in `metricsCertPath`; default `tls.crt`. */
  metricsCertName?: string;
  /** The key's file name in `metricsCertPath`; default `tls.key`. */
  metricsCertKey?: string;
  /**
   * TLS of the webhook and secure metrics servers (`--tls-min-version`, `--tls-cipher-suites`),
   * controller-runtime's `TLSOpts`: default TLS 1.2 at least, Node's cipher suites, and
   * HTTP/1.1 only. E.g. `{ minVersion: 'VersionTLS13' }`.
   */
  tls?: TlsSettings;
  /** `/healthz` and `/readyz` address, e.g. `:8081`; `0` (the default) turns it off. */
  healthProbeBindAddress?: string;
  /**
   * The webhook server's port (`--webhook-port`), for `serveWebhooks`; the manager itself
   * ignores it. Default 9443.
   */
  webhookPort?: number;
  /**
   * Directory holding the webhook server's certificate and key (`--webhook-cert-path`), e.g. a
   * mounted cert-manager Secret, for `serveWebhooks`. Unset: the built-in certificates.
   */
  webhookCertPath?: string;
  /** The certificate's file name in `webhookCertPath`; default `tls.crt`. */
  webhookCertName?: string;
  /** The key's file name in `webhookCertPath`; default `tls.key`. */
  webhookCertKey?: string;
  /** Lifetime of the built-in serving certificate (`--webhook-cert-validity`); default 365 days. */
  webhookCertValidityMs?: number;
  /** Lifetime of the built-in certificates' CA (`--webhook-ca-validity`); default ten times `webhookCertValidityMs`. */
  webhookCaValidityMs?: number;
  /** How often the built-in certificates' Secret is re-read (`--webhook-cert-refresh`); default 60 000. */
  webhookCertRefreshMs?: number;
  /**
   * Spread the reconciled objects over the replicas, each reconciling its own share (see
   * `@opgen/runtime/sharding`). Controllers then run on every replica, fenced by the
   * replica's shard Lease (`leaseDurationMs`, `renewDeadlineMs`, `retryPeriodMs` apply to
   * it); the leader election flags elect nothing then: one replica's sharder elects itself
   * on `<ring>-sharder`. Leases live in `leaderElectionNamespace`.
   *
   * The flags `--shard-ring`, `--shard-id` and `--shard-mode` set it from the command line.
   *
   * @example
   * createManager({ ...managerOptionsFromArgs(), sharding: { ring: 'widgets', mode: 'labels' } });
   */
  sharding?: ShardingOptions;
  /**
   * Reconcile a fleet: controllers then reconcile their kinds on every cluster the provider
   * engages (each with its own connection, cache, queue and backoff), not on the manager's
   * own cluster, which keeps leader election, probes' checks and what the provider reads
   * (kubeconfig Secrets, namespaces). See `@opgen/runtime/multicluster`.
   *
   * @example
   * import { kubeconfigSecretClusters } from '@opgen/runtime/multicluster';
   * createManager({
   *   ...managerOptionsFromArgs(),
   *   clusters: kubeconfigSecretClusters({ namespace: 'fleet' }),
   * });
   */
  clusters?: ClusterProvider;
  /** `--shard-ring`: the ring to join; main.ts turns it into `sharding`. */
  shardRing?: string;
  /** `--shard-id`: this replica's shard id; default the host (pod) name. */
  shardId?: string;
  /** `--shard-mode`: `ShardingOptions.mode` for the ring of `--shard-ring`; default `auto`. */
  shardMode?: 'auto' | 'labels' | 'server';
  /** Run controllers only while holding the Lease `leaderElectionId`; default false. */
  leaderElection?: boolean;
  /** Name of the Lease, e.g. `abc123.example.com`; required with `leaderElection`. */
  leaderElectionId?: string;
  /** Namespace of the Lease; default the pod's namespace, or `default` out of cluster. */
  leaderElectionNamespace?: string;
  /** Default 15 000. */
  leaseDurationMs?: number;
  /** Default 10 000. */
  renewDeadlineMs?: number;
  /** Default 2 000. */
  retryPeriodMs?: number;
  /**
   * Give the Lease up on a clean shutdown so another replica takes over at once instead of
   * after `leaseDurationMs`. Default true: the manager releases it only after its
   * controllers have finished, so two replicas never reconcile at the same time.
   */
  leaderElectionReleaseOnCancel?: boolean;
  /** How long shutdown waits for in-flight reconciles; default 30 000. */
  gracefulShutdownTimeoutMs?: number;
  /**
   * How long the caches' first lists may go without progress before the manager fails;
   * default 120 000. Progress is any object received (a list page, 500 objects of a
   * streaming list), an informer synced, any answer of the API server: a large cache still
   * filling is waited for however long it takes (logged every 10 s) instead of failed and
   * restarted from nothing, while `/readyz` fails and `/healthz` passes. A server that
   * refuses (403) or cannot be reached fails it after this long.
   */
  cacheSyncTimeoutMs?: number;
  /**
   * Client-side rate limit of every request the manager sends, requests per second: one
   * token bucket shared by the client (reads, writes, their retries, events), the cache's
   * lists (every page and every relist), leader election and the metrics endpoint's access
   * reviews. Watches take no token, as in client-go. Waits show in
   * `rest_client_rate_limiter_duration_seconds`. Off by default, as in controller-runtime
   * (API Priority and Fairness limits on the server).
   */
  qps?: number;
  /** Burst of the client-side rate limit; default `qps` rounded up; only with `qps`. */
  burst?: number;
  /**
   * How long a cached read waits for the cache to show this process's own earlier writes
   * of that kind before reading the API server instead (read-your-writes); default 5 000,
   * 0 turns it off.
   */
  readYourWritesMs?: number;
  /** Field manager of the shared client's writes; each controller writes as its own name. */
  fieldManager?: string;
  /**
   * Export each reconcile as an OpenTelemetry span, its API calls as child spans, over
   * OTLP/HTTP to this collector (`--otlp-endpoint`): a base URL such as
   * `http://otel-collector.observability:4318` (`/v1/traces` is added) or the full traces URL.
   * Default: the `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`
   * environment variable; neither set: no tracing, and the OpenTelemetry SDK is not even
   * loaded. `service.name` is `OTEL_SERVICE_NAME`, else the project's package name. Spans
   * are batched and the last ones sent on shutdown. See `exportReconcileSpans` in
   * `@opgen/runtime/observe`.
   */
  otlpEndpoint?: string;
  /** Default: `LOG_FORMAT`, else `json`. */
  logFormat?: LogFormat;
  /** Default: `LOG_LEVEL`, else `info`. */
  logLevel?: LevelWithSilent;
  /** Where log lines go; default standard error. */
  logDestination?: LoggerOptions['destination'];
  /** Stop gracefully on SIGTERM/SIGINT and exit on a second one; default true. */
  handleSignals?: boolean;
  /** Called with 1 when the lease is lost or a second signal arrives; default `process.exit`. */
  exit?: (code: number) => void;
}
