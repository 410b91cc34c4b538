import { parseArgs } from 'node:util';
import { isLogLevel } from '../log/index.js';
import { parseBindAddress } from '../http/bind-address.js';
import { tlsContextOptions, type TlsSettings, type TlsVersionName } from '../http/tls.js';
import { durationFlag } from './duration-flag.js';
import { otlpTracesUrl } from '../observe/otlp.js';
import type { ManagerOptions } from './options.js';

/** The flags of {@link managerOptionsFromArgs}, with kubebuilder's names and defaults. */
const FLAGS = {
  'metrics-bind-address': { type: 'string', default: '0' },
  'metrics-secure': { type: 'boolean', default: true },
  'metrics-cert-path': { type: 'string' },
  'metrics-cert-name': { type: 'string' },
  'metrics-cert-key': { type: 'string' },
  'health-probe-bind-address': { type: 'string', default: ':8081' },
  'webhook-port': { type: 'string' },
  'webhook-cert-path': { type: 'string' },
  // controller-runtime's name of the same directory (webhook.Options.CertDir).
  'webhook-cert-dir': { type: 'string' },
  'webhook-cert-name': { type: 'string' },
  'webhook-cert-key': { type: 'string' },
  'webhook-cert-validity': { type: 'string' },
  'webhook-ca-validity': { type: 'string' },
  'webhook-cert-refresh': { type: 'string' },
  'leader-elect': { type: 'boolean', default: false },
  'leader-election-id': { type: 'string' },
  'leader-election-namespace': { type: 'string' },
  namespace: { type: 'string' },
  kubeconfig: { type: 'string' },
  'log-format': { type: 'string' },
  'log-level': { type: 'string' },
  'kube-api-qps': { type: 'string' },
  'kube-api-burst': { type: 'string' },
  'shard-ring': { type: 'string' },
  'shard-id': { type: 'string' },
  'shard-mode': { type: 'string' },
  'tls-min-version': { type: 'string' },
  'tls-cipher-suites': { type: 'string' },
  'otlp-endpoint': { type: 'string' },
} as const;

type BooleanFlag = { [F in keyof typeof FLAGS]: (typeof FLAGS)[F]['type'] extends 'boolean' ? F : never }[keyof typeof FLAGS];

/**
 * Go's flag syntax, which kubebuilder users' manifests carry, in parseArgs' terms:
 * `-flag` means `--flag`, and a boolean may be written `--flag=true` / `--flag=false`.
 * parseArgs has no way to say false (Node 20 lacks `--no-flag`), so the booleans whose
 * last mention is `=false` come back separately.
 */
function normalize(argv: readonly string[]): { args: string[]; falses: Set<BooleanFlag> } {
  const args: string[] = [];
  const falses = new Set<BooleanFlag>();
  for (const raw of argv) {
    const arg = /^-[^-]{2,}/.test(raw) ? `-${raw}` : raw;
    const bool = /^--([^=]+)(?:=(true|false))?$/.exec(arg);
    const name = bool?.[1] as BooleanFlag;
    if (bool && FLAGS[name]?.type === 'boolean') {
      if (bool[2] === 'false') falses.add(name);
      else {
        falses.delete(name);
        args.push(`--${name}`);
      }
      continue;
    }
    args.push(arg);
  }
  return { args, falses };
}

/**
 * Reads a kubebuilder-style manager's flags: `--metrics-bind-address` (default `0`, off),
 * `--metrics-secure` (default true, as in kubebuilder's `main.go`: HTTPS with
 * authentication and authorization through the API server; `--metrics-secure=false` for
 * plain HTTP), `--metrics-cert-path` / `--metrics-cert-name` (default `tls.crt`) /
 * `--metrics-cert-key` (default `tls.key`) for a certificate instead of a self-signed one,
 * `--health-probe-bind-address` (default `:8081`), `--webhook-port` (default 9443),
 * `--webhook-cert-path` (or controller-runtime's `--webhook-cert-dir`) / `--webhook-cert-name` /
 * `--webhook-cert-key` for the webhook server's certificate files, `--webhook-cert-validity`
 * (the built-in serving certificate's lifetime, e.g. `90d`; renewed with a third left),
 * `--webhook-ca-validity` (its CA's, default ten times that; rotated with a third left) and
 * `--webhook-cert-refresh` (how often its Secret is re-read), `--leader-elect`, `--leader-election-id`
 * (the Lease's name, overriding the one the code gives), `--leader-election-namespace`,
 * `--namespace`,
 * `--kubeconfig`, `--log-format json|pretty`, `--log-level`, and `--kube-api-qps` /
 * `--kube-api-burst` (the client-side rate limit, as Kubernetes' controllers name it: one
 * token bucket for every request of the manager, the cache's lists and relists included,
 * watches excepted; off unless given), `--shard-ring` / `--shard-id` (join a shard ring,
 * this replica's id; see `ManagerOptions.sharding`), `--shard-mode auto|labels|server` (how
 * the ring splits the objects; default auto), `--tls-min-version VersionTLS12|VersionTLS13` and
 * `--tls-cipher-suites` (comma-separated IANA names) for the webhook and metrics servers, as
 * Kubernetes' components name them, and `--otlp-endpoint` (an OpenTelemetry collector's
 * OTLP/HTTP URL: each reconcile is exported as a span; off unless given, or named by
 * `OTEL_EXPORTER_OTLP_ENDPOINT`). `--flag value`,
 * `--flag=value`, Go's `-flag` and `--leader-elect=false` all work. Throws a one-line
 * error on an unknown flag or a bad value.
 *
 * kubebuilder's Deployment passes `--metrics-bind-address=:8443`, so in the cluster
 * `/metrics` is served over HTTPS on 8443 to scrapers bound to a `metrics-reader` role.
 *
 * @example
 * const options = managerOptionsFromArgs(process.argv.slice(2));
 * const mgr = createManager({
 *   ...options,
 *   leaderElectionId: options.leaderElectionId ?? 'abc123.example.com',
 * });
 */
export function managerOptionsFromArgs(argv: readonly string[] = process.argv.slice(2)): ManagerOptions {
  const { args, falses } = normalize(argv);
  let values;
  try {
    ({ values } = parseArgs({ args, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new Error(`${(error as Error).message.split('\n')[0]} (flags: ${Object.keys(FLAGS).map((f) => `--${f}`).join(', ')})`);
  }
  for (const flag of falses) values[flag] = false;
  parseBindAddress(values['metrics-bind-address']);
  parseBindAddress(values['health-probe-bind-address']);
  const options: ManagerOptions = {
    metricsBindAddress: values['metrics-bind-address'],
    metricsSecure: values['metrics-secure'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    leaderElection: values['leader-elect'],
  };
  if (values['metrics-cert-path']) options.metricsCertPath = values['metrics-cert-path'];
  if (values['metrics-cert-name']) options.metricsCertName = values['metrics-cert-name'];
  if (values['metrics-cert-key']) options.metricsCertKey = values['metrics-cert-key'];
  const webhookPort = values['webhook-port'];
  if (webhookPort !== undefined) {
    if (!/^\d+$/.test(webhookPort) || Number(webhookPort) > 65535) throw new Error(`--webhook-port must be a port number (0-65535), not "${webhookPort}"`);
    options.webhookPort = Number(webhookPort);
  }
  const certPath = values['webhook-cert-path'];
  const certDir = values['webhook-cert-dir'];
  if (certPath && certDir && certPath !== certDir) throw new Error('--webhook-cert-path and --webhook-cert-dir name the same directory: pass one of them');
  if (certPath || certDir) options.webhookCertPath = certPath || certDir;
  if (values['webhook-cert-name']) options.webhookCertName = values['webhook-cert-name'];
  if (values['webhook-cert-key']) options.webhookCertKey = values['webhook-cert-key'];
  Object.assign(options, certificateTiming(values['webhook-cert-validity'], values['webhook-cert-refresh'], values['webhook-ca-validity']));
  if (values['leader-election-id']) options.leaderElectionId = values['leader-election-id'];
  if (values['leader-election-namespace']) options.leaderElectionNamespace = values['leader-election-namespace'];
  if (values.namespace) options.namespace = values.namespace;
  if (values.kubeconfig) options.kubeconfigPath = values.kubeconfig;
  const format = values['log-format'];
  if (format !== undefined) {
    if (format !== 'json' && format !== 'pretty') throw new Error(`--log-format must be json or pretty, not "${format}"`);
    options.logFormat = format;
  }
  const level = values['log-level'];
  if (level !== undefined) {
    if (!isLogLevel(level)) throw new Error(`--log-level must be one of trace, debug, info, warn, error, fatal, silent, not "${level}"`);
    options.logLevel = level;
  }
  Object.assign(options, rateLimit(values['kube-api-qps'], values['kube-api-burst']));
  if (values['shard-ring']) options.shardRing = values['shard-ring'];
  if (values['shard-id']) {
    if (!values['shard-ring']) throw new Error('--shard-id needs --shard-ring');
    options.shardId = values['shard-id'];
  }
  const mode = values['shard-mode'];
  if (mode !== undefined) {
    if (!values['shard-ring']) throw new Error('--shard-mode needs --shard-ring');
    if (mode !== 'auto' && mode !== 'labels' && mode !== 'server') throw new Error(`--shard-mode must be auto, labels or server, not "${mode}"`);
    options.shardMode = mode;
  }
  const otlp = values['otlp-endpoint'];
  if (otlp !== undefined) {
    try {
      otlpTracesUrl(otlp);
    } catch (error) {
      throw new Error(`--otlp-endpoint: ${(error as Error).message}`);
    }
    options.otlpEndpoint = otlp;
  }
  const tls = tlsFlags(values['tls-min-version'], values['tls-cipher-suites']);
  if (tls) options.tls = tls;
  return options;
}

/** `--tls-min-version` and `--tls-cipher-suites`, checked now so a bad value stops the process before it serves. */
function tlsFlags(minVersion: string | undefined, suites: string | undefined): TlsSettings | undefined {
  if (minVersion === undefined && suites === undefined) return undefined;
  const tls: TlsSettings = {};
  if (minVersion !== undefined) tls.minVersion = minVersion as TlsVersionName;
  if (suites !== undefined) tls.cipherSuites = suites.split(',').map((suite) => suite.trim()).filter(Boolean);
  try {
    tlsContextOptions(tls);
  } catch (error) {
    const flag = minVersion !== undefined && (error as Error).message.startsWith('TLS minimum') ? '--tls-min-version' : '--tls-cipher-suites';
    throw new Error(`${flag}: ${(error as Error).message}`);
  }
  return tls;
}

/** `--kube-api-qps` (a positive number) and `--kube-api-burst` (a positive integer, only with a QPS). */
function rateLimit(qps: string | undefined, burst: string | undefined): Pick<ManagerOptions, 'qps' | 'burst'> {
  if (qps === undefined) {
    if (burst !== undefined) throw new Error('--kube-api-burst needs --kube-api-qps');
    return {};
  }
  const perSecond = Number(qps);
  if (!(perSecond > 0) || !Number.isFinite(perSecond)) throw new Error(`--kube-api-qps must be a positive number, not "${qps}"`);
  if (burst === undefined) return { qps: perSecond };
  const size = Number(burst);
  if (!Number.isInteger(size) || size < 1) throw new Error(`--kube-api-burst must be a positive integer, not "${burst}"`);
  return { qps: perSecond, burst: size };
}

type CertificateTiming = Pick<ManagerOptions, 'webhookCertValidityMs' | 'webhookCertRefreshMs' | 'webhookCaValidityMs'>;

/**
 * `--webhook-cert-validity`, `--webhook-cert-refresh` and `--webhook-ca-validity`. The certificate
 * is renewed when a third of its lifetime is left, so a refresh slower than that could let it
 * expire unseen; the CA signs it for its whole lifetime, so cannot be shorter-lived.
 */
function certificateTiming(validity: string | undefined, refresh: string | undefined, caValidity: string | undefined): CertificateTiming {
  const options: CertificateTiming = {};
  if (validity !== undefined) options.webhookCertValidityMs = durationFlag('webhook-cert-validity', validity);
  if (refresh !== undefined) options.webhookCertRefreshMs = durationFlag('webhook-cert-refresh', refresh);
  if (caValidity !== undefined) options.webhookCaValidityMs = durationFlag('webhook-ca-validity', caValidity);
  const validityMs = options.webhookCertValidityMs ?? 365 * 24 * 60 * 60 * 1000;
  if (options.webhookCaValidityMs !== undefined && options.webhookCaValidityMs < validityMs) {
    throw new Error(`--webhook-ca-validity (${caValidity}) must be at least --webhook-cert-validity (${validity ?? '365d'}): the CA signs the serving certificate for its whole lifetime`);
  }
  const refreshMs = options.webhookCertRefreshMs ?? 60_000;
  if (refreshMs * 3 > validityMs) {
    throw new Error(`--webhook-cert-refresh (${refresh ?? '60s'}) must be at most a third of --webhook-cert-validity (${validity ?? '365d'}): the certificate is renewed when a third of it is left`);
  }
  return options;
}
