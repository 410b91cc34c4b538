import { rm } from 'node:fs/promises';
import { type ControlPlane, freePort, type Identity, startControlPlane } from '@opgen/runtime/testing';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compile,
  httpsGet,
  kubectlBinary,
  kubectlWith,
  linkCli,
  linkDependencies,
  npmRun,
  project,
  projectDir,
  scaffoldOperator,
  waitFor,
} from './support.js';

// The RBAC that `opgen manifests` generates from a controller's markers, proven against a
// real API server: the operator's config is deployed with `npm run deploy`, the operator
// runs out of cluster with nothing but its ServiceAccount's token (TokenRequest), does its
// whole job, leader election and secure metrics included, and may do nothing else.

const image = 'registry.example.com/team/demo-volume-operator:0.1.0';
const otherCrd = 'gadgets.other.example.com';
let work: string;
let dir: string;
let controlPlane: ControlPlane;
let kubectl: ReturnType<typeof kubectlWith>;
let asOperator: ReturnType<typeof kubectlWith>;
let operatorIdentity: Identity;
let operator: ResultPromise<{ all: true; reject: false }> | undefined;
let operatorOutput = '';
let metricsUrl: string;
let healthUrl: string;

beforeAll(async () => {
  ({ work, dir } = await projectDir());
  await scaffoldOperator(dir);
  await linkDependencies(dir);
  await linkCli(dir);
  const [started, kubectlPath] = await Promise.all([
    startControlPlane({ users: [{ name: 'prometheus' }, { name: 'stranger' }] }),
    kubectlBinary(),
    compile(dir),
  ]);
  controlPlane = started;
  kubectl = kubectlWith(kubectlPath, controlPlane.kubeconfigPath);

  const deploy = await npmRun(dir, 'deploy', ['--image', image], { KUBECTL: kubectlPath, KUBECONFIG: controlPlane.kubeconfigPath });
  expect(deploy.exitCode, deploy.all).toBe(0);
  const established = await kubectl('wait', '--for=condition=established', '--timeout=30s', `crd/${project.crd}`);
  expect(established.exitCode, established.all).toBe(0);
  const other = await kubectl.apply(gadgetCrd());
  expect(other.exitCode, other.all).toBe(0);

  operatorIdentity = await controlPlane.serviceAccountKubeConfig(project.namespace, project.serviceAccount);
  asOperator = kubectlWith(kubectlPath, operatorIdentity.kubeconfigPath);
  const [metricsPort, healthPort] = [await freePort(), await freePort()];
  metricsUrl = `https://127.0.0.1:${metricsPort}/metrics`;
  healthUrl = `http://127.0.0.1:${healthPort}/readyz`;
  operator = execa(
    'node',
    [
      'dist/main.js',
      `--kubeconfig=${operatorIdentity.kubeconfigPath}`,
      '--leader-elect',
      `--metrics-bind-address=127.0.0.1:${metricsPort}`,
      `--health-probe-bind-address=127.0.0.1:${healthPort}`,
    ],
    // Out of the cluster, the Lease's namespace is named: the one config/rbac grants Leases in.
    { cwd: dir, all: true, reject: false, extendEnv: false, env: { PATH: process.env.PATH ?? '', LEADER_ELECTION_NAMESPACE: project.namespace } },
  );
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

function gadgetCrd() {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: otherCrd },
    spec: {
      group: 'other.example.com',
      names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

/** What the operator printed so far: its JSON logs, for failure messages. */
function operatorLog(): string {
  return operatorOutput;
}

describe('an operator deployed from its scaffolded config, running as its ServiceAccount', () => {
  it('does its whole job: reconciles, creates what it owns, reports status, records events, leads', async () => {
    const ready = await waitFor('the operator to be ready', async () => {
      const response = await fetch(healthUrl).catch(() => undefined);
      return response?.status === 200 ? true : undefined;
    }, 60_000);
    expect(ready).toBe(true);

    const sample = { apiVersion: 'storage.civo.com/v1', kind: 'DemoVolume', metadata: { name: 'data', namespace: 'default' }, spec: { size: 2 } };
    const create = await kubectl.apply(sample);
    expect(create.exitCode, create.all).toBe(0);

    // No kubelet or PV provisioner here: the claim stays Pending, which the status reports.
    const reason = await kubectl('wait', '-n', 'default', 'demovolume/data', '--timeout=60s', '--for=jsonpath={.status.conditions[?(@.type=="Ready")].reason}=Pending');
    expect(reason.exitCode, `${reason.all}\n${operatorLog()}`).toBe(0);

    const claim = JSON.parse((await kubectl('get', 'pvc', '-n', 'default', 'data', '-o', 'json')).stdout) as {
      metadata: { ownerReferences: { kind: string; name: string; controller: boolean }[] };
      spec: { resources: { requests: { storage: string } } };
    };
    expect(claim.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'DemoVolume', name: 'data', controller: true })]);
    expect(claim.spec.resources.requests.storage).toBe('2Gi');

    const events = await waitFor('the Created event', async () => {
      const list = await kubectl('get', 'events.events.k8s.io', '-n', 'default', '--field-selector=regarding.name=data', '-o', 'jsonpath={.items[*].reason}');
      return list.stdout.includes('Created') ? list.stdout : undefined;
    });
    expect(events).toContain('Created');

    const lease = await kubectl('get', 'leases.coordination.k8s.io', '-n', project.namespace, '-o', 'jsonpath={.items[*].spec.holderIdentity}');
    expect(lease.stdout, operatorLog()).not.toBe('');
    expect(operatorLog()).not.toMatch(/forbidden/i);
  }, 120_000);

  it('may do what its markers ask for, and nothing else', async () => {
    // `kubectl auth can-i` with the operator's own token: its real user and groups, not an impersonation.
    const can = async (...args: string[]) => {
      const answer = await asOperator('auth', 'can-i', ...args);
      return answer.stdout.trim();
    };
    const ns = project.namespace;
    const allowed = [
      ['get', 'demovolumes.storage.civo.com', '--all-namespaces'],
      ['list', 'demovolumes.storage.civo.com', '--all-namespaces'],
      ['watch', 'demovolumes.storage.civo.com', '--all-namespaces'],
      ['update', 'demovolumes.storage.civo.com', '-n', 'default'],
      ['patch', 'demovolumes.storage.civo.com', '--subresource=status', '-n', 'default'],
      ['update', 'demovolumes.storage.civo.com', '--subresource=status', '-n', 'default'],
      ['create', 'persistentvolumeclaims', '-n', 'default'],
      ['watch', 'persistentvolumeclaims', '--all-namespaces'],
      ['create', 'events.events.k8s.io', '-n', 'default'],
      ['get', 'leases.coordination.k8s.io', '-n', ns],
      ['create', 'leases.coordination.k8s.io', '-n', ns],
      ['update', 'leases.coordination.k8s.io', '-n', ns],
      ['create', 'tokenreviews.authentication.k8s.io'],
      ['create', 'subjectaccessreviews.authorization.k8s.io'],
    ];
    const denied = [
      ['get', 'secrets', '-n', 'default'],
      ['get', 'secrets', '-n', ns],
      ['list', 'secrets', '--all-namespaces'],
      ['list', 'pods', '--all-namespaces'],
      ['create', 'pods', '-n', 'default'],
      ['delete', 'namespaces'],
      ['delete', 'demovolumes.storage.civo.com', '-n', 'default'], // the markers leave delete out
      ['create', 'demovolumes.storage.civo.com', '-n', 'default'],
      ['delete', 'persistentvolumeclaims', '-n', 'default'],
      ['update', 'persistentvolumeclaims', '-n', 'default'],
      ['create', 'leases.coordination.k8s.io', '-n', 'default'],
      ['list', otherCrd, '--all-namespaces'],
      ['create', otherCrd, '-n', 'default'],
      ['update', 'customresourcedefinitions.apiextensions.k8s.io'],
      ['create', 'clusterrolebindings.rbac.authorization.k8s.io'],
      ['get', '/metrics'],
    ];
    const answers = async (checks: string[][]) => Promise.all(checks.map(async (check) => `${check.join(' ')}: ${await can(...check)}`));
    expect(await answers(allowed)).toEqual(allowed.map((check) => `${check.join(' ')}: yes`));
    expect(await answers(denied)).toEqual(denied.map((check) => `${check.join(' ')}: no`));
  }, 60_000);

  it('serves /metrics over HTTPS to a token the metrics-reader role allows, and to no one else', async () => {
    const token = (name: string) => controlPlane.userKubeConfig(name).kubeConfig.getCurrentUser()?.token;
    const bind = await kubectl('create', 'clusterrolebinding', 'prometheus-metrics', `--clusterrole=${project.name}-metrics-reader`, '--user=prometheus');
    expect(bind.exitCode, bind.all).toBe(0);

    expect((await httpsGet(metricsUrl)).status).toBe(401);
    expect((await httpsGet(metricsUrl, 'not-a-token')).status).toBe(401);
    const stranger = await httpsGet(metricsUrl, token('stranger'));
    expect(stranger).toEqual({ status: 403, body: 'Authorization denied for user stranger\n' });

    const scrape = await httpsGet(metricsUrl, token('prometheus'));
    expect(scrape.status, `${scrape.body}\n${operatorLog()}`).toBe(200);
    expect(scrape.body).toMatch(/^controller_runtime_reconcile_total\{controller="demovolume",result="success"\} [1-9]/m);
  }, 60_000);
});
