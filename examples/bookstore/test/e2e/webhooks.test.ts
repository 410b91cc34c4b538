import { createServer } from 'node:net';
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
let kubectl: Kubectl;

/** This machine's first non-loopback IPv4 address: Endpoints may not be loopback. */
function hostAddress(): string {
  const address = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (!address) throw new Error('this machine has no non-loopback IPv4 address for the webhook Service to point at');
  return address;
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
  const address = hostAddress();
  await kubectl.apply([
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'webhook-service', namespace: ns }, spec: { ports: [{ name: 'https', port: 443, targetPort: port }] } },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'webhook-service-operator', namespace: ns, labels: { 'kubernetes.io/service-name': 'webhook-service' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [address], conditions: { ready: true } }],
      ports: [{ name: 'https', port, protocol: 'TCP' }],
    },
    { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'webhook-service', namespace: ns }, subsets: [{ addresses: [{ ip: address }], ports: [{ name: 'https', port, protocol: 'TCP' }] }] },
  ]);
  operator = await startOperator({
    dir: project,
    kubeconfigPath: controlPlane.kubeconfigPath,
    args: ['--webhook-port', String(port)],
    // The names config/ gives the objects before kustomize's prefix, which this test skips.
    env: {
      POD_NAMESPACE: ns,
      WEBHOOK_SERVICE_NAME: 'webhook-service',
      MUTATING_WEBHOOK_CONFIGURATION: 'mutating-webhook-configuration',
      VALIDATING_WEBHOOK_CONFIGURATION: 'validating-webhook-configuration',
    },
  });
}, 180_000);

// A failing test shows what the operator logged.
beforeEach(({ onTestFailed }) => onTestFailed(() => console.log(operator?.output())));

afterAll(async () => {
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
});
