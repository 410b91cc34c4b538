import { X509Certificate } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createTransport } from '../../src/rest/transport.js';
import { controller } from '../../src/controller/index.js';
import { createManager, type Manager, type ManagerOptions } from '../../src/manager/index.js';
import { startControlPlane, type ControlPlane, type Identity } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';

// Serving certificates for the --metrics-cert-path case (test-only keys, valid 100 years):
//   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 36500 \
//     -subj "/CN=metrics-first.test" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
//     -keyout first/tls.key -out first/tls.crt        (and the same for `second`)
const CERTS = fileURLToPath(new URL('../fixtures/metrics-certs/', import.meta.url));
const NS = 'default';

interface Answer {
  status: number;
  body: string;
  certificate: X509Certificate;
}

/** GET over HTTPS, trusting `ca` when given, else accepting any certificate (like `insecureSkipVerify`). */
function httpsGet(url: string, options: { token?: string; ca?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        headers: options.token === undefined ? {} : { authorization: `Bearer ${options.token}` },
        ...(options.ca ? { ca: options.ca } : { rejectUnauthorized: false }),
        agent: false,
      },
      (response) => {
        const certificate = (response.socket as TLSSocket).getPeerX509Certificate()!;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, certificate }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('secure metrics against a real API server', () => {
  let cp: ControlPlane;
  let admin: Client;
  /** The operator's identity: a ServiceAccount with only its controller's and metrics-auth rights. */
  let operator: Identity;
  const managers: Manager[] = [];
  const running: Promise<void>[] = [];

  const tokenOf = (identity: Identity): string => identity.kubeConfig.getCurrentUser()!.token!;

  async function serviceAccount(name: string): Promise<string> {
    await admin.create(kinds.ServiceAccount, { metadata: { name, namespace: NS } });
    return tokenOf(await cp.serviceAccountKubeConfig(NS, name));
  }

  async function bindClusterRole(role: string, serviceAccountName: string): Promise<void> {
    await admin.create(kinds.ClusterRoleBinding, {
      metadata: { name: `${role}-${serviceAccountName}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccountName, namespace: NS }],
    });
  }

  /** Starts a manager as the operator with secure metrics and one ConfigMap controller; returns its metrics URL. */
  async function startManager(options: ManagerOptions = {}): Promise<string> {
    const mgr = createManager({
      kubeConfig: operator.kubeConfig,
      handleSignals: false,
      logLevel: 'silent',
      metricsBindAddress: '127.0.0.1:0',
      metricsSecure: true,
      ...options,
    });
    controller(mgr, { name: 'configmap' }).for(kinds.ConfigMap).reconcile(() => undefined);
    managers.push(mgr);
    running.push(mgr.start());
    await mgr.elected();
    return `https://${mgr.metricsAddress}/metrics`;
  }

  /** The API server's own count of requests for `resource`, from its /metrics. */
  async function reviewsMade(resource: 'tokenreviews' | 'subjectaccessreviews'): Promise<number> {
    const response = await createTransport(cp.kubeConfig).stream({ method: 'GET', path: '/metrics' });
    let text = '';
    for await (const chunk of response) text += String(chunk);
    const series = text.split('\n').filter((line) => line.startsWith('apiserver_request_total{') && line.includes(`resource="${resource}"`));
    return series.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  }

  beforeAll(async () => {
    cp = await startControlPlane();
    admin = createClient(cp.kubeConfig);
    // What the scaffold's config/rbac grants the operator: its controller's rights, and
    // (metrics_auth_role.yaml) the right to ask the API server about callers.
    await admin.create(kinds.ClusterRole, {
      metadata: { name: 'manager-role' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
    });
    await admin.create(kinds.ClusterRole, {
      metadata: { name: 'metrics-auth-role' },
      rules: [
        { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
        { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      ],
    });
    // What a scraper is bound to (the scaffold's metrics_reader_role.yaml).
    await admin.create(kinds.ClusterRole, {
      metadata: { name: 'metrics-reader' },
      rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
    });
    await admin.create(kinds.ServiceAccount, { metadata: { name: 'operator', namespace: NS } });
    await bindClusterRole('manager-role', 'operator');
    await bindClusterRole('metrics-auth-role', 'operator');
    operator = await cp.serviceAccountKubeConfig(NS, 'operator');
    await admin.create(kinds.ConfigMap, { metadata: { name: 'reconciled', namespace: NS }, data: { a: '1' } });
  }, 90_000);

  afterAll(async () => {
    for (const mgr of managers) mgr.stop();
    await Promise.allSettled(running);
    await cp?.stop();
  });

  it('answers 401 without a token or with one the API server rejects, 403 to a ServiceAccount without the role, and the metrics once it is bound to metrics-reader', async () => {
    const url = await startManager();
    const scraper = await serviceAccount('prometheus');

    const anonymous = await httpsGet(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toBe('Unauthorized\n');
    expect((await httpsGet(url, { token: 'not-a-token' })).status).toBe(401);
    // A real token for another audience than the API server's is no better than garbage.
    expect((await httpsGet(url, { token: `${scraper}x` })).status).toBe(401);

    const forbidden = await httpsGet(url, { token: scraper });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toBe(`Authorization denied for user system:serviceaccount:${NS}:prometheus\n`);
    expect(forbidden.body).not.toContain('controller_runtime');

    await bindClusterRole('metrics-reader', 'prometheus');
    // The denial is cached for a few seconds; the grant takes effect after that.
    const allowed = await eventually('the scrape allowed', async () => {
      const answer = await httpsGet(url, { token: scraper });
      return answer.status === 200 ? answer : undefined;
    }, 30_000);
    expect(allowed.body).toMatch(/^controller_runtime_reconcile_total\{controller="configmap",result="success"\} [1-9]/m);
    expect(allowed.body).toMatch(/^workqueue_adds_total\{name="configmap",controller="configmap"\} [1-9]/m);

    // Other paths stay 404, as on controller-runtime's metrics server.
    expect((await httpsGet(url.replace('/metrics', '/debug'), { token: scraper })).status).toBe(404);
  }, 90_000);

  it('serves TLS with a self-signed certificate a client can pin, and nothing over plain HTTP', async () => {
    const url = await startManager();
    const token = await serviceAccount('pinning-scraper');
    await bindClusterRole('metrics-reader', 'pinning-scraper');

    const { certificate } = await httpsGet(url);
    expect(certificate.subject).toBe('CN=localhost');
    expect(certificate.issuer).toBe(certificate.subject);
    expect(certificate.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    // Trusting exactly that certificate, a verifying client (hostname checked against the
    // 127.0.0.1 SAN) gets the metrics.
    const pinned = await httpsGet(url, { token, ca: certificate.toString() });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toContain('controller_runtime_reconcile_total');
    // Pinning another certificate for the same names fails the handshake.
    const other = readFileSync(join(CERTS, 'first', 'tls.crt'), 'utf8');
    await expect(httpsGet(url, { token, ca: other })).rejects.toThrow(/self.signed|unable to verify|certificate/i);

    await expect(fetch(url.replace('https:', 'http:'))).rejects.toThrow();
  }, 90_000);

  it('asks the API server once per token and decision, not on every scrape', async () => {
    const url = await startManager();
    const token = await serviceAccount('frequent-scraper');
    await bindClusterRole('metrics-reader', 'frequent-scraper');
    const before = { tokens: await reviewsMade('tokenreviews'), access: await reviewsMade('subjectaccessreviews') };

    const scrapes = await Promise.all(Array.from({ length: 5 }, () => httpsGet(url, { token })));
    for (let i = 0; i < 5; i++) scrapes.push(await httpsGet(url, { token }));
    expect(scrapes.map((s) => s.status)).toEqual(Array(10).fill(200));
    for (let i = 0; i < 3; i++) expect((await httpsGet(url, { token: 'garbage' })).status).toBe(401);

    // One review of the good token, one of the garbage token, one access decision.
    expect(await reviewsMade('tokenreviews')).toBe(before.tokens + 2);
    expect(await reviewsMade('subjectaccessreviews')).toBe(before.access + 1);
  }, 90_000);

  it('serves the certificate from --metrics-cert-path and switches when the mounted Secret is renewed', async () => {
    // A Secret volume's layout: tls.crt -> ..data/tls.crt, ..data -> a timestamped dir,
    // renewed by swapping the ..data link in one rename.
    const dir = mkdtempSync(join(tmpdir(), 'opgen-metrics-certs-'));
    try {
      const version = (name: string) => {
        const target = join(dir, `..${name}`);
        mkdirSync(target);
        cpSync(join(CERTS, name), target, { recursive: true });
        symlinkSync(`..${name}`, join(dir, '..data_tmp'));
        renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
      };
      version('first');
      symlinkSync('..data/tls.crt', join(dir, 'tls.crt'));
      symlinkSync('..data/tls.key', join(dir, 'tls.key'));

      const url = await startManager({ metricsCertPath: dir });
      expect((await httpsGet(url)).certificate.subject).toBe('CN=metrics-first.test');
      expect((await httpsGet(url)).status).toBe(401);

      version('second');
      await eventually('the renewed certificate served', async () => (await httpsGet(url)).certificate.subject === 'CN=metrics-second.test', 20_000);
      expect((await httpsGet(url)).status).toBe(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('refuses to start when the certificate files are missing, saying which', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgen-metrics-certs-'));
    try {
      const mgr = createManager({
        kubeConfig: operator.kubeConfig,
        handleSignals: false,
        logLevel: 'silent',
        metricsBindAddress: '127.0.0.1:0',
        metricsSecure: true,
        metricsCertPath: dir,
        metricsCertName: 'cert.pem',
      });
      await expect(mgr.start()).rejects.toThrow(`cannot read the metrics server certificate ${join(dir, 'cert.pem')}: ENOENT`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
