import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { KubernetesObjectApi, loadAllYaml, type KubernetesObject } from '@kubernetes/client-node';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, opgen } from './run.js';

// kubebuilder's "webhook bootstrap problem" on a real API server: the 'everything' fixture
// has a validating webhook on Pods with failurePolicy Fail. With its server DOWN (the URL
// points at a closed port), the operator's own Pods must still be created, or the operator
// could never start again to serve the webhook; Pods elsewhere are refused, as Fail says.
// Pods are plain API objects here: no scheduler or kubelet runs.

type WebhookConfiguration = KubernetesObject & { webhooks: { name: string; clientConfig: Record<string, unknown> }[] };

const operatorNamespace = 'everything-system';
const podWebhook = 'vpod.shop.example.com';
/** The label the fixture's objectSelector asks for: only such Pods reach the webhook at all. */
const managed = { 'shop.example.com/managed': 'true' };
/** The labels config/manager gives the manager's Pods. */
const managerLabels = { ...managed, 'control-plane': 'controller-manager' };

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The fixture's generated ValidatingWebhookConfiguration, only the Pod webhook kept, named
 * `name`, calling a server that is down.
 */
async function generatedPodWebhook(name: string, namespaced: boolean, dirs: string[]): Promise<WebhookConfiguration> {
  const dir = copyFixture('everything');
  dirs.push(dir);
  if (namespaced) {
    writeFileSync(join(dir, 'PROJECT'), readFileSync(join(dir, 'PROJECT'), 'utf8').replace('projectName: everything\n', 'projectName: everything\nnamespaced: true\n'));
    // The fixture's cluster-wide RBAC rules have no place in a namespaced project.
    rmSync(join(dir, 'src/controllers/gadget_controller.ts'));
  }
  const run = await opgen('manifests', '--dir', dir);
  expect(run.stderr).toBe('');
  const documents = loadAllYaml(readFileSync(join(dir, 'config/webhook/manifests.yaml'), 'utf8')) as WebhookConfiguration[];
  const validating = documents.find((d) => d.kind === 'ValidatingWebhookConfiguration')!;
  const port = await closedPort();
  const webhooks = validating.webhooks
    .filter((w) => w.name === podWebhook)
    .map((w) => ({ ...w, clientConfig: { url: `https://127.0.0.1:${port}/validate--v1-pod` } }));
  expect(webhooks).toHaveLength(1);
  return { ...validating, metadata: { name }, webhooks };
}

function pod(namespace: string, name: string, labels: Record<string, string>): KubernetesObject & { spec: unknown } {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels }, spec: { containers: [{ name: 'manager', image: 'example.com/operator:1' }] } };
}

describe('a generated webhook on Pods, its server down, on a real API server', () => {
  let cp: ControlPlane;
  let api: KubernetesObjectApi;
  const dirs: string[] = [];
  let probes = 0;

  /** The API server's message when it refuses to create the object, undefined when it creates it. */
  async function refusal(object: KubernetesObject): Promise<string | undefined> {
    try {
      await api.create(object);
      return undefined;
    } catch (error) {
      const body = (error as { body?: unknown }).body;
      return typeof body === 'string' ? ((JSON.parse(body) as { message?: string }).message ?? body) : String(error);
    }
  }

  /** Applies the configuration and waits until the API server calls it (its configuration cache lags the write). */
  async function install(configuration: WebhookConfiguration, refusedPod: (name: string) => KubernetesObject): Promise<string> {
    await api.create(configuration);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const message = await refusal(refusedPod(`probe-${++probes}`));
      if (message !== undefined) return message;
      if (Date.now() > deadline) throw new Error(`the API server never called ${configuration.metadata?.name}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    cp = await startControlPlane();
    api = KubernetesObjectApi.makeApiClient(cp.kubeConfig);
    for (const name of [operatorNamespace, 'tenant']) await api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }, 120_000);
  afterAll(async () => {
    await cp?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("creates the operator's Pods and kube-system's, and refuses the others by failurePolicy Fail", async () => {
    const configuration = await generatedPodWebhook('cluster-wide', false, dirs);
    const refused = await install(configuration, (name) => pod('tenant', name, managed));
    expect(refused).toContain(`failed calling webhook "${podWebhook}"`);

    expect(await refusal(pod(operatorNamespace, 'controller-manager-1', managerLabels))).toBeUndefined();
    expect(await refusal(pod(operatorNamespace, 'other', managed))).toBeUndefined();
    expect(await refusal(pod('kube-system', 'coredns-1', managed))).toBeUndefined();
    expect(await refusal(pod('tenant', 'app', managed))).toContain(`failed calling webhook "${podWebhook}"`);
    expect(await refusal(pod('default', 'app', managed))).toContain(`failed calling webhook "${podWebhook}"`);
    await api.delete(configuration);
  });

  it("in a namespaced project, creates the manager's own Pods and leaves other namespaces alone", async () => {
    const configuration = await generatedPodWebhook('namespaced', true, dirs);
    const refused = await install(configuration, (name) => pod(operatorNamespace, name, managed));
    expect(refused).toContain(`failed calling webhook "${podWebhook}"`);

    expect(await refusal(pod(operatorNamespace, 'controller-manager-2', managerLabels))).toBeUndefined();
    expect(await refusal(pod('tenant', 'outside', managed))).toBeUndefined();
    expect(await refusal(pod(operatorNamespace, 'workload', managed))).toContain(`failed calling webhook "${podWebhook}"`);
    await api.delete(configuration);
  });
});
