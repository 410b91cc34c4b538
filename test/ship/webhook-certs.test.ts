import { rm } from 'node:fs/promises';
import { type ControlPlane, freePort, startControlPlane } from '@opgen/runtime/testing';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opgenOk } from '../scaffold/run.js';
import { compile, kubectlBinary, kubectlWith, linkCli, linkDependencies, npmRun, project, projectDir, waitFor } from './support.js';

// The built-in webhook certificates of a project scaffolded with `opgen create webhook`,
// proven against a real API server: config/default is deployed with `npm run deploy`, the
// operator runs out of the cluster with nothing but its ServiceAccount's token, creates its
// CA and serving certificate in the Secret, writes the CA into its webhook configurations and
// its CRD's conversion, and reports ready; the RBAC create webhook generated allows exactly that.

const secret = `${project.name}-webhook-server-cert`;
const mutating = `${project.name}-mutating-webhook-configuration`;
const validating = `${project.name}-validating-webhook-configuration`;
let work: string;
let dir: string;
let controlPlane: ControlPlane;
let kubectl: ReturnType<typeof kubectlWith>;
let asOperator: ReturnType<typeof kubectlWith>;
let operator: ResultPromise<{ all: true; reject: false }> | undefined;
let operatorOutput = '';
let healthUrl: string;

beforeAll(async () => {
  ({ work, dir } = await projectDir());
  await opgenOk(dir, 'init', '--domain', 'civo.com', '--skip-install');
  await opgenOk(dir, 'create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume');
  await opgenOk(dir, 'create', 'api', '--group', 'storage', '--version', 'v2', '--kind', 'DemoVolume', '--no-controller');
  await opgenOk(dir, 'create', 'webhook', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume', '--defaulting', '--programmatic-validation');
  await opgenOk(dir, 'create', 'webhook', '--group', 'storage', '--version', 'v2', '--kind', 'DemoVolume', '--conversion', '--spoke', 'v1');
  await opgenOk(dir, 'manifests');
  await linkDependencies(dir);
  await linkCli(dir);
  const [started, kubectlPath] = await Promise.all([startControlPlane(), kubectlBinary(), compile(dir)]);
  controlPlane = started;
  kubectl = kubectlWith(kubectlPath, controlPlane.kubeconfigPath);

  const deploy = await npmRun(dir, 'deploy', ['--image', 'registry.example.com/demo-volume-operator:0.1.0'], { KUBECTL: kubectlPath, KUBECONFIG: controlPlane.kubeconfigPath });
  expect(deploy.exitCode, deploy.all).toBe(0);
  const established = await kubectl('wait', '--for=condition=established', '--timeout=30s', `crd/${project.crd}`);
  expect(established.exitCode, established.all).toBe(0);

  const identity = await controlPlane.serviceAccountKubeConfig(project.namespace, project.serviceAccount);
  asOperator = kubectlWith(kubectlPath, identity.kubeconfigPath);
  const [healthPort, webhookPort] = [await freePort(), await freePort()];
  healthUrl = `http://127.0.0.1:${healthPort}/readyz`;
  operator = execa('node', ['dist/main.js', `--kubeconfig=${identity.kubeconfigPath}`, `--health-probe-bind-address=127.0.0.1:${healthPort}`, `--webhook-port=${webhookPort}`], {
    cwd: dir,
    all: true,
    reject: false,
    extendEnv: false,
    // What config/default/manager_webhook_patch.yaml gives the pod: its namespace (the names default to config/default's).
    env: { PATH: process.env.PATH ?? '', POD_NAMESPACE: project.namespace, LEADER_ELECTION_NAMESPACE: project.namespace },
  });
  operator.all.on('data', (chunk: Buffer) => (operatorOutput += chunk.toString()));
}, 240_000);

afterAll(async () => {
  if (operator) {
    operator.kill('SIGTERM');
    await operator;
  }
  await controlPlane?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

const json = async (...args: string[]) => {
  const result = await kubectl(...args, '-o', 'json');
  expect(result.exitCode, result.all).toBe(0);
  return JSON.parse(result.stdout);
};

describe('the built-in webhook certificates of a deployed operator', () => {
  it('are created in the Secret, trusted by the webhook configurations and the CRD, and gate /readyz', async () => {
    await waitFor('the operator to be ready', async () => ((await fetch(healthUrl).catch(() => undefined))?.status === 200 ? true : undefined), 90_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${operatorOutput}`);
    });
    const data = (await json('get', 'secret', '-n', project.namespace, secret)).data as Record<string, string>;
    expect(Object.keys(data)).toEqual(expect.arrayContaining(['ca.crt', 'tls.crt', 'tls.key']));
    const ca = Buffer.from(data['ca.crt']!, 'base64').toString();
    const trusted = (bundle: string) => Buffer.from(bundle, 'base64').toString().includes(ca.trim());
    for (const [kind, name] of [['mutatingwebhookconfiguration', mutating], ['validatingwebhookconfiguration', validating]] as const) {
      const configuration = await json('get', kind, name);
      expect(configuration.webhooks.map((w: { clientConfig: { caBundle: string } }) => trusted(w.clientConfig.caBundle))).toEqual([true]);
    }
    const crd = await json('get', 'crd', project.crd);
    expect(crd.spec.conversion.strategy).toBe('Webhook');
    expect(trusted(crd.spec.conversion.webhook.clientConfig.caBundle)).toBe(true);
    expect(operatorOutput).not.toMatch(/forbidden/i);
  }, 120_000);

  it('need exactly the rights create webhook generated: their Secret, the configurations and CRD by name', async () => {
    const can = async (...args: string[]) => `${args.join(' ')}: ${(await asOperator('auth', 'can-i', ...args)).stdout.trim()}`;
    const ns = project.namespace;
    const allowed = [
      ['create', 'secrets', '-n', ns],
      ['get', `secrets/${secret}`, '-n', ns],
      ['update', `secrets/${secret}`, '-n', ns],
      ['get', `mutatingwebhookconfigurations.admissionregistration.k8s.io/${mutating}`],
      ['update', `mutatingwebhookconfigurations.admissionregistration.k8s.io/${mutating}`],
      ['update', `validatingwebhookconfigurations.admissionregistration.k8s.io/${validating}`],
      ['update', `customresourcedefinitions.apiextensions.k8s.io/${project.crd}`],
    ];
    const denied = [
      ['get', 'secrets/other', '-n', ns],
      ['list', 'secrets', '-n', ns],
      ['get', `secrets/${secret}`, '-n', 'default'],
      ['create', 'secrets', '-n', 'default'],
      ['update', 'mutatingwebhookconfigurations.admissionregistration.k8s.io/other'],
      ['create', 'mutatingwebhookconfigurations.admissionregistration.k8s.io'],
      ['update', 'customresourcedefinitions.apiextensions.k8s.io/gadgets.other.example.com'],
      ['delete', `customresourcedefinitions.apiextensions.k8s.io/${project.crd}`],
    ];
    expect(await Promise.all(allowed.map((check) => can(...check)))).toEqual(allowed.map((check) => `${check.join(' ')}: yes`));
    expect(await Promise.all(denied.map((check) => can(...check)))).toEqual(denied.map((check) => `${check.join(' ')}: no`));
  }, 60_000);
});
