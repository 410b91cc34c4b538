import { describe, expect, it } from 'vitest';
import { parseBindAddress } from '../../src/http/bind-address.js';
import { managerOptionsFromArgs } from '../../src/manager/args.js';

describe('managerOptionsFromArgs', () => {
  it('gives kubebuilder defaults: metrics off (secure once on), probes on :8081, no leader election', () => {
    expect(managerOptionsFromArgs([])).toEqual({ metricsBindAddress: '0', metricsSecure: true, healthProbeBindAddress: ':8081', leaderElection: false });
  });

  it('reads the flags a kubebuilder manager Deployment passes', () => {
    const options = managerOptionsFromArgs([
      '--metrics-bind-address=:8443',
      '--health-probe-bind-address',
      ':9440',
      '--leader-elect',
      '--leader-election-id=echo-lease',
      '--leader-election-namespace=ops',
      '--namespace=team-a',
      '--kubeconfig',
      '/tmp/kc',
      '--log-format=pretty',
      '--log-level=debug',
    ]);
    expect(options).toEqual({
      metricsBindAddress: ':8443',
      metricsSecure: true,
      healthProbeBindAddress: ':9440',
      leaderElection: true,
      leaderElectionId: 'echo-lease',
      leaderElectionNamespace: 'ops',
      namespace: 'team-a',
      kubeconfigPath: '/tmp/kc',
      logFormat: 'pretty',
      logLevel: 'debug',
    });
  });

  it('turns secure metrics off with --metrics-secure=false and reads the certificate flags', () => {
    expect(managerOptionsFromArgs(['--metrics-bind-address=:8080', '--metrics-secure=false'])).toMatchObject({ metricsBindAddress: ':8080', metricsSecure: false });
    expect(managerOptionsFromArgs(['-metrics-secure=false']).metricsSecure).toBe(false);
    expect(managerOptionsFromArgs(['--metrics-secure=false', '--metrics-secure']).metricsSecure).toBe(true);
    expect(managerOptionsFromArgs(['--metrics-cert-path=/tmp/k8s-metrics-server/metrics-certs', '--metrics-cert-name=cert.pem', '--metrics-cert-key', 'key.pem'])).toMatchObject({
      metricsSecure: true,
      metricsCertPath: '/tmp/k8s-metrics-server/metrics-certs',
      metricsCertName: 'cert.pem',
      metricsCertKey: 'key.pem',
    });
  });

  it('reads the webhook server flags of kubebuilder\'s main.go, and controller-runtime\'s --webhook-cert-dir', () => {
    expect(managerOptionsFromArgs(['--webhook-port=9444', '--webhook-cert-path=/certs', '--webhook-cert-name=srv.crt', '--webhook-cert-key', 'srv.key'])).toMatchObject({
      webhookPort: 9444,
      webhookCertPath: '/certs',
      webhookCertName: 'srv.crt',
      webhookCertKey: 'srv.key',
    });
    expect(managerOptionsFromArgs(['-webhook-cert-dir=/mounted']).webhookCertPath).toBe('/mounted');
    expect(() => managerOptionsFromArgs(['--webhook-port=http'])).toThrow('--webhook-port must be a port number (0-65535), not "http"');
    expect(() => managerOptionsFromArgs(['--webhook-cert-path=/a', '--webhook-cert-dir=/b'])).toThrow('name the same directory');
    expect(() => managerOptionsFromArgs(['--webhook-certs=/a'])).toThrow(/Unknown option '--webhook-certs'/);
  });

  it('reads the built-in certificate\'s lifetime and refresh as durations, and refuses a refresh that could miss a renewal', () => {
    expect(managerOptionsFromArgs(['--webhook-cert-validity=90d', '--webhook-cert-refresh', '5m'])).toMatchObject({ webhookCertValidityMs: 90 * 86_400_000, webhookCertRefreshMs: 300_000 });
    expect(managerOptionsFromArgs(['-webhook-cert-validity=1h30m'])).toMatchObject({ webhookCertValidityMs: 5_400_000 });
    expect(managerOptionsFromArgs(['--webhook-cert-validity=60s', '--webhook-cert-refresh=2s'])).toMatchObject({ webhookCertValidityMs: 60_000, webhookCertRefreshMs: 2_000 });
    expect(managerOptionsFromArgs([])).not.toHaveProperty('webhookCertValidityMs');
    expect(() => managerOptionsFromArgs(['--webhook-cert-validity=365'])).toThrow('--webhook-cert-validity must be a positive duration such as 90s, 10m, 24h or 365d, not "365"');
    expect(() => managerOptionsFromArgs(['--webhook-cert-refresh=0'])).toThrow('--webhook-cert-refresh must be a positive duration such as 90s, 10m, 24h or 365d, not "0"');
    expect(() => managerOptionsFromArgs(['--webhook-cert-validity=1.5d'])).toThrow('not "1.5d"');
    // The default refresh (60s) would see a 2-minute certificate only after it expired.
    expect(() => managerOptionsFromArgs(['--webhook-cert-validity=2m'])).toThrow('--webhook-cert-refresh (60s) must be at most a third of --webhook-cert-validity (2m)');
  });

  it('reads the built-in CA\'s lifetime as a duration, and refuses a CA shorter-lived than the serving certificate it signs', () => {
    expect(managerOptionsFromArgs(['--webhook-ca-validity=3650d'])).toMatchObject({ webhookCaValidityMs: 3650 * 86_400_000 });
    expect(managerOptionsFromArgs(['--webhook-cert-validity=90d', '-webhook-ca-validity', '2160h'])).toMatchObject({ webhookCertValidityMs: 90 * 86_400_000, webhookCaValidityMs: 90 * 86_400_000 });
    expect(managerOptionsFromArgs([])).not.toHaveProperty('webhookCaValidityMs');
    expect(() => managerOptionsFromArgs(['--webhook-ca-validity=10y'])).toThrow('--webhook-ca-validity must be a positive duration such as 90s, 10m, 24h or 365d, not "10y"');
    expect(() => managerOptionsFromArgs(['--webhook-ca-validity='])).toThrow('--webhook-ca-validity must be a positive duration');
    expect(() => managerOptionsFromArgs(['--webhook-cert-validity=90d', '--webhook-ca-validity=30d'])).toThrow(
      /^--webhook-ca-validity \(30d\) must be at least --webhook-cert-validity \(90d\): the CA signs the serving certificate for its whole lifetime$/,
    );
    // Against the default serving certificate's 365 days.
    expect(() => managerOptionsFromArgs(['--webhook-ca-validity=364d'])).toThrow('--webhook-ca-validity (364d) must be at least --webhook-cert-validity (365d)');
  });

  it("accepts Go's spellings: single dash and --flag=false", () => {
    expect(managerOptionsFromArgs(['-leader-elect=false', '-metrics-bind-address=:8080'])).toMatchObject({
      leaderElection: false,
      metricsBindAddress: ':8080',
    });
    expect(managerOptionsFromArgs(['--leader-elect=true']).leaderElection).toBe(true);
  });

  it('reads the client-side rate limit as Kubernetes controllers spell it, off unless given', () => {
    expect(managerOptionsFromArgs([])).not.toHaveProperty('qps');
    expect(managerOptionsFromArgs(['--kube-api-qps=20', '--kube-api-burst', '30'])).toMatchObject({ qps: 20, burst: 30 });
    expect(managerOptionsFromArgs(['-kube-api-qps=2.5'])).toMatchObject({ qps: 2.5 });
    expect(managerOptionsFromArgs(['-kube-api-qps=2.5'])).not.toHaveProperty('burst');
    expect(() => managerOptionsFromArgs(['--kube-api-qps=0'])).toThrow('--kube-api-qps must be a positive number, not "0"');
    expect(() => managerOptionsFromArgs(['--kube-api-qps=5', '--kube-api-burst=1.5'])).toThrow('--kube-api-burst must be a positive integer, not "1.5"');
    expect(() => managerOptionsFromArgs(['--kube-api-burst=10'])).toThrow('--kube-api-burst needs --kube-api-qps');
  });

  it('reads --shard-ring and --shard-id, and refuses a shard id without a ring', () => {
    expect(managerOptionsFromArgs(['--shard-ring=widgets', '--shard-id', 'app-0'])).toMatchObject({ shardRing: 'widgets', shardId: 'app-0' });
    expect(managerOptionsFromArgs([])).not.toHaveProperty('shardRing');
    expect(() => managerOptionsFromArgs(['--shard-id=app-0'])).toThrow('--shard-id needs --shard-ring');
  });

  it('reads --shard-mode as auto, labels or server, only with a ring', () => {
    expect(managerOptionsFromArgs(['--shard-ring=widgets', '--shard-mode=labels'])).toMatchObject({ shardRing: 'widgets', shardMode: 'labels' });
    expect(managerOptionsFromArgs(['--shard-ring=widgets'])).not.toHaveProperty('shardMode');
    expect(() => managerOptionsFromArgs(['--shard-ring=widgets', '--shard-mode=hash'])).toThrow('--shard-mode must be auto, labels or server, not "hash"');
    expect(() => managerOptionsFromArgs(['--shard-mode=server'])).toThrow('--shard-mode needs --shard-ring');
  });

  it('reads --otlp-endpoint, tracing off unless given, and refuses what is not an http(s) URL', () => {
    expect(managerOptionsFromArgs([]).otlpEndpoint).toBeUndefined();
    expect(managerOptionsFromArgs(['--otlp-endpoint=http://otel-collector.observability:4318']).otlpEndpoint).toBe('http://otel-collector.observability:4318');
    expect(() => managerOptionsFromArgs(['--otlp-endpoint', 'otel-collector:4317x'])).toThrow('--otlp-endpoint: the OTLP endpoint must be an http:// or https:// URL, not "otel-collector:4317x"');
    expect(() => managerOptionsFromArgs(['--otlp-endpoint=collector'])).toThrow(/^--otlp-endpoint: .*not "collector"$/);
  });

  it('rejects unknown flags, naming the known ones', () => {
    expect(() => managerOptionsFromArgs(['--metrics-addr=:8080'])).toThrow(/Unknown option '--metrics-addr'.*--metrics-bind-address/);
  });

  it('rejects bad values in one line', () => {
    expect(() => managerOptionsFromArgs(['--log-format=xml'])).toThrow('--log-format must be json or pretty, not "xml"');
    expect(() => managerOptionsFromArgs(['--log-level=loud'])).toThrow(/--log-level must be one of/);
    expect(() => managerOptionsFromArgs(['--metrics-bind-address=8080'])).toThrow('invalid bind address "8080"');
  });
});

describe('parseBindAddress', () => {
  it('reads Go-style addresses', () => {
    expect(parseBindAddress(':8080')).toEqual({ port: 8080 });
    expect(parseBindAddress('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBindAddress('[::1]:8443')).toEqual({ host: '::1', port: 8443 });
    expect(parseBindAddress('localhost:9')).toEqual({ host: 'localhost', port: 9 });
  });

  it('turns the server off for "0"', () => {
    expect(parseBindAddress('0')).toBeUndefined();
  });

  it('rejects what is not an address', () => {
    for (const bad of ['8080', ':99999', 'host:', '::1:80', 'a b:80']) expect(() => parseBindAddress(bad), bad).toThrow(/invalid bind address/);
  });
});
