import { X509Certificate } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildProject, kubectlFor, startControlPlane, startOperator, type ControlPlane, type Kubectl, type Operator } from '@opgen/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type * as v1alpha1 from '../../src/api/v1alpha1/bookstore_types.js';
import type * as v1alpha2 from '../../src/api/v1alpha2/bookstore_types.js';

// The operator as `node dist/main.js` with its webhooks on and the built-in certificates: it
// makes its CA and serving certificate, keeps them in a Secret and writes the CA into the
// webhook configurations and the CRD that config/ installs. There is no kube-proxy here, so the
// API server is started with --enable-aggregator-routing: it then calls a Service's endpoints
// itself, and the Service config/ names gets an endpoint on this machine's address, where the
// operator listens. The API server checks the certificate against the Service's DNS name, as in
// a cluster. Only kubectl on the user's side.
const project = fileURLToPath(new URL('../..', import.meta.url));
const ns = 'system';
const poll = { timeout: 30_000, interval: 250 };

let controlPlane: ControlPlane | undefined;
let operator: Operator | undefined;
let replica: Operator | undefined;
let kubectl: Kubectl;
let address: string;
let firstPort: number;

/** The operator with its webhooks on `port`, named as config/ names the objects before kustomize's prefix (which this test skips). */
const startReplica = (port: number, name?: string, flags: string[] = []) =>
  startOperator({
    dir: project,
    kubeconfigPath: controlPlane!.kubeconfigPath,
    args: ['--webhook-port', String(port), ...flags],
    ...(name ? { name } : {}),
    env: {
      POD_NAMESPACE: ns,
      WEBHOOK_SERVICE_NAME: 'webhook-service',
      MUTATING_WEBHOOK_CONFIGURATION: 'mutating-webhook-configuration',
      VALIDATING_WEBHOOK_CONFIGURATION: 'validating-webhook-configuration',
    },
  });

/**
 * The Service's endpoints: this machine's address on each webhook port, one EndpointSlice (and
 * Endpoints subset) per port, as each must carry the Service port's name.
 */
const endpoints = (ports: number[]) => [
  ...ports.map((port) => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `webhook-service-${port}`, namespace: ns, labels: { 'kubernetes.io/service-name': 'webhook-service' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [address], conditions: { ready: true } }],
    ports: [{ name: 'https', port, protocol: 'TCP' }],
  })),
  { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'webhook-service', namespace: ns }, subsets: ports.map((port) => ({ addresses: [{ ip: address }], ports: [{ name: 'https', port, protocol: 'TCP' }] })) },
];

/** This machine's first non-loopback IPv4 address: Endpoints may not be loopback. */
function hostAddress(): string {
  const address = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (!address) throw new Error('this machine has no non-loopback IPv4 address for the webhook Service to point at');
  return address;
}

/** Whether something accepts TCP connections on `port` of this machine's address. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** The serial number of the certificate served on `port` of this machine's address. */
function servedSerial(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: address, port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().serialNumber);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  [controlPlane] = await Promise.all([startControlPlane({ extraArgs: { kubeApiServer: ['--enable-aggregator-routing=true'] } }), buildProject(project)]);
  kubectl = kubectlFor(controlPlane, { cwd: project });
  // config/crd points the CRD's conversion at webhook-service.system; config/webhook its
  // admission webhooks. The Service has no selector (no Pods here): its endpoint is ours.
  await kubectl(['create', 'namespace', ns]);
  await kubectl(['apply', '--server-side', '-k', 'config/crd']);
  await kubectl(['wait', '--for=condition=Established', 'crd/bookstores.blog.example.com']);
  await kubectl(['apply', '--server-side', '-f', 'config/webhook/manifests.yaml']);
  const port = await freePort();
  address = hostAddress();
  await kubectl.apply([
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'webhook-service', namespace: ns }, spec: { ports: [{ name: 'https', port: 443, targetPort: 'https' }] } },
    ...endpoints([port]),
  ]);
  operator = await startReplica(port);
  firstPort = port;
}, 180_000);

// A failing test shows what the operator logged.
beforeEach(({ onTestFailed }) => onTestFailed(() => console.log(operator?.output(), replica?.output())));

afterAll(async () => {
  await replica?.stop();
  await operator?.stop();
  await controlPlane?.stop();
});

const v1 = 'bookstores.v1alpha1.blog.example.com';
const v2 = 'bookstores.v1alpha2.blog.example.com';

describe('BookStore webhooks served by the operator process', () => {
  it('get the CA the operator made, and the API server calls them through the Service', async () => {
    const secret = () => kubectl.get('secret', 'bookstore-webhook-server-cert', { namespace: ns });
    await expect.poll(async () => Object.keys((await secret())?.data ?? {}).sort(), poll).toEqual(['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);
    const ca = (await secret()).data['ca.crt'];
    await expect.poll(async () => (await kubectl.get('crd', 'bookstores.blog.example.com'))?.spec?.conversion?.webhook?.clientConfig?.caBundle, poll).toBe(ca);
    await expect.poll(async () => (await kubectl.get('validatingwebhookconfiguration', 'validating-webhook-configuration'))?.webhooks?.[0]?.clientConfig?.caBundle, poll).toBe(ca);
    await expect.poll(async () => (await kubectl.get('mutatingwebhookconfiguration', 'mutating-webhook-configuration'))?.webhooks?.[0]?.clientConfig?.caBundle, poll).toBe(ca);

    // The first calls may race the API server's view of the new CA: retry the create until it lands.
    const store = {
      apiVersion: 'blog.example.com/v1alpha2',
      kind: 'BookStore',
      metadata: { name: 'shop', namespace: 'default' },
      spec: { bookApp: { image: { repository: 'akash125/pyapp' }, env: [{ name: 'MONGO_URL', value: 'mongodb://shop-mongodb:27017' }] }, bookDB: { image: { repository: 'mongo', tag: '7.0' }, dbSize: '2Gi' } },
    };
    await expect.poll(async () => (await kubectl.run(['create', '-f', '-'], { input: JSON.stringify(store) })).stderr, poll).toBe('');
    // Converted to v1alpha1 to be stored, defaulted there, and converted back on the way out.
    const asV2 = await kubectl.get<v1alpha2.BookStore>(v2, 'shop', { namespace: 'default' });
    expect(asV2?.spec.bookApp.image).toEqual({ repository: 'akash125/pyapp', tag: 'latest', pullPolicy: 'IfNotPresent' });
    expect(asV2?.spec.bookApp.env).toEqual(store.spec.bookApp.env);
    const asV1 = await kubectl.get<v1alpha1.BookStore>(v1, 'shop', { namespace: 'default' });
    expect(asV1?.spec.bookApp).toMatchObject({ repository: 'akash125/pyapp', tag: 'latest' });
    expect(asV1?.spec.bookApp).not.toHaveProperty('env');
  });

  it('refuse a smaller dbSize with the reason on kubectl', async () => {
    const refused = await kubectl.run(['patch', v2, 'shop', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { bookDB: { dbSize: '1Gi' } } })]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('spec.bookDB.dbSize cannot shrink from 2Gi to 1Gi');
    expect((await kubectl.get<v1alpha2.BookStore>(v2, 'shop', { namespace: 'default' }))?.spec.bookDB.dbSize).toBe('2Gi');
  });

  it('keep answering while a second replica starts on the same Secret, shares the calls, then takes them all', async () => {
    const before = await kubectl.get('secret', 'bookstore-webhook-server-cert', { namespace: ns });
    const port = await freePort();
    replica = await startReplica(port, 'bookstore-replica');
    // As a Pod's readiness would: its endpoint joins once its webhook server accepts connections.
    await expect.poll(() => accepts(port), poll).toBe(true);
    await kubectl.apply(endpoints([firstPort, port]));
    // The API server picks one of the two endpoints for each call: every update is admitted and
    // defaulted, whichever replica answers, as both serve a certificate from the one Secret.
    for (let replicas = 1; replicas <= 20; replicas++) {
      await kubectl(['patch', v2, 'shop', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { bookApp: { replicas, image: { tag: '' } } } })]);
      const stored = await kubectl.get<v1alpha2.BookStore>(v2, 'shop', { namespace: 'default' });
      expect(stored?.spec.bookApp).toMatchObject({ replicas, image: { tag: 'latest' } });
    }
    // The replica alone, once the first one's endpoint leaves: its certificate is from the same CA.
    // (An EndpointSlice left behind would keep the first one in; each port has its own.)
    await kubectl(['delete', 'endpointslice', `webhook-service-${firstPort}`, '-n', ns]);
    await kubectl.apply(endpoints([port]));
    await operator!.stop();
    await kubectl(['patch', v2, 'shop', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { bookApp: { replicas: 1, image: { tag: '' } } } })]);
    expect((await kubectl.get<v1alpha2.BookStore>(v2, 'shop', { namespace: 'default' }))?.spec.bookApp).toMatchObject({ replicas: 1, image: { tag: 'latest' } });
    const after = await kubectl.get('secret', 'bookstore-webhook-server-cert', { namespace: ns });
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  it('keep admitting and converting every request while the serving certificate is renewed', async () => {
    // A new Secret for an operator whose serving certificate lives a minute (renewed with 20 s
    // left) and whose Secret is re-read every 2 s.
    await replica!.stop();
    await kubectl(['delete', 'secret', 'bookstore-webhook-server-cert', '-n', ns]);
    const port = await freePort();
    operator = await startReplica(port, 'bookstore-rotating', ['--webhook-cert-validity=60s', '--webhook-cert-refresh=2s']);
    await expect.poll(() => accepts(port), poll).toBe(true);
    await kubectl(['delete', 'endpointslice', '--all', '-n', ns]);
    await kubectl.apply(endpoints([port]));
    const secret = () => kubectl.get('secret', 'bookstore-webhook-server-cert', { namespace: ns });
    const patch = (replicas: number) => kubectl.run(['patch', v2, 'shop', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { bookApp: { replicas, image: { tag: '' } } } })]);
    // The API server's first calls may race its view of the new CA.
    await expect.poll(async () => (await patch(0)).stderr, poll).toBe('');
    const first = await secret();
    const firstSerial = await servedSerial(port);

    // Admission (defaulting and validation) on each update, conversion to v1alpha1 to store it
    // and back on each read, until ten rounds after the operator serves a renewed certificate.
    const failures: string[] = [];
    let renewedAt: number | undefined;
    for (let round = 1; renewedAt === undefined || round <= renewedAt + 10; round++) {
      const replicas = (round % 20) + 1;
      const updated = await patch(replicas);
      if (updated.code !== 0) failures.push(`patch: ${updated.stderr}`);
      const read = await kubectl.run(['get', v2, 'shop', '-n', 'default', '-o', 'json']);
      if (read.code !== 0) failures.push(`get: ${read.stderr}`);
      else expect((JSON.parse(read.stdout) as v1alpha2.BookStore).spec.bookApp).toMatchObject({ replicas, image: { tag: 'latest' } });
      if (renewedAt === undefined && (await servedSerial(port)) !== firstSerial) renewedAt = round;
    }
    expect(failures).toEqual([]);
    // Renewed from the same CA: the trust bundles did not have to change.
    const renewed = await secret();
    expect(renewed.data['tls.crt']).not.toBe(first.data['tls.crt']);
    // Not renewed before its last third (20 s): the new one was issued (its start is backdated an
    // hour for clock skew) no earlier than 20 s before the first one's end, to the second.
    const validity = (pem: string) => new X509Certificate(Buffer.from(pem, 'base64'));
    const issued = new Date(validity(renewed.data['tls.crt']).validFrom).getTime() + 3_600_000;
    expect(issued).toBeGreaterThanOrEqual(new Date(validity(first.data['tls.crt']).validTo).getTime() - 21_000);
    expect(renewed.data['ca.crt']).toBe(first.data['ca.crt']);
    expect((await kubectl.get('crd', 'bookstores.blog.example.com'))?.spec?.conversion?.webhook?.clientConfig?.caBundle).toBe(first.data['ca.crt']);
  }, 180_000);
});
