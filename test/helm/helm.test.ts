import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { cleanUp, projectDir } from '../scaffold/run.js';
import { helm, helmBinary, opgenOk, scaffoldDemoVolume } from './project.js';

// The chart as Helm users meet it: the real helm (hack/helm/build.sh) lints and renders it.

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // Specs of many kinds, read field by field in assertions.
  spec?: any;
  [key: string]: unknown;
}

const run = promisify(execFile);
let dir: string;
let chart: string;

beforeAll(async () => {
  await helmBinary();
  dir = await projectDir('demo-volume-operator');
  await scaffoldDemoVolume(dir);
  // A description that reads like a template action must reach the cluster as written.
  const types = join(dir, 'src/api/v1/demovolume_types.ts');
  await writeFile(
    types,
    (await readFile(types, 'utf8')).replace('foo is an example field of DemoVolume', 'foo names the volume, like {{ .Name }} in Go templates'),
  );
  await opgenOk(dir, 'manifests');
  await customizeManager();
  await opgenOk(dir, 'edit', '--plugins', 'helm');
  chart = join(dir, 'dist/chart');
}, 20 * 60_000);

const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;

/**
 * What users do to config/manager: pin the image by digest in a private registry, and give
 * the manager a ConfigMap of their own. The chart must carry both.
 */
async function customizeManager(): Promise<void> {
  const kustomizationPath = join(dir, 'config/manager/kustomization.yaml');
  const kustomization = parse(await readFile(kustomizationPath, 'utf8')) as { resources: string[] };
  await writeFile(
    kustomizationPath,
    stringify({
      ...kustomization,
      resources: [...kustomization.resources, 'manager_config.yaml'],
      images: [{ name: 'controller', newName: 'registry.local:5000/team/demo-volume-operator', digest }],
    }),
  );
  await writeFile(
    join(dir, 'config/manager/manager_config.yaml'),
    stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'manager-config', namespace: 'system' }, data: { LOG_LEVEL: 'debug' } }),
  );
  const managerPath = join(dir, 'config/manager/manager.yaml');
  const docs = parseAllDocuments(await readFile(managerPath, 'utf8')).map((d) => d.toJS() as K8sObject);
  const deployment = docs.find((d) => d.kind === 'Deployment')!;
  deployment.spec.template.spec.containers[0].envFrom = [{ configMapRef: { name: 'manager-config' } }];
  await writeFile(managerPath, docs.map((d) => stringify(d)).join('---\n'));
}
afterAll(async () => {
  if (dir) await cleanUp(dir);
});

async function render(release: string, namespace: string, ...sets: string[]): Promise<K8sObject[]> {
  const out = await helm('template', release, chart, '--namespace', namespace, ...sets.flatMap((s) => ['--set', s]));
  return parseAllDocuments(out)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

const find = (objects: K8sObject[], kind: string, nameEnd = '') => objects.filter((o) => o.kind === kind && o.metadata.name.endsWith(nameEnd));
const only = (objects: K8sObject[], kind: string, nameEnd = '') => {
  const found = find(objects, kind, nameEnd);
  expect(found, `${kind} *${nameEnd}`).toHaveLength(1);
  return found[0]!;
};
const managerArgs = (objects: K8sObject[]) => only(objects, 'Deployment').spec.template.spec.containers[0].args as string[];

/** Drops what is meant to differ between the chart and kustomize: labels and Helm's keep policy. */
function withoutLabels(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLabels);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([key]) => key !== 'labels' && key !== 'matchLabels' && key !== 'selector')
    .map(([key, v]) => [key, key === 'annotations' ? withoutKeepPolicy(v as Record<string, string>) : withoutLabels(v)]);
  return Object.fromEntries(entries);
}
function withoutKeepPolicy(annotations: Record<string, string>): Record<string, string> {
  const { 'helm.sh/resource-policy': _, ...rest } = annotations;
  return rest;
}

describe('the chart', () => {
  it('passes helm lint --strict', async () => {
    const out = await helm('lint', '--strict', chart);
    expect(out).toContain('1 chart(s) linted, 0 chart(s) failed');
  });

  it('renders, with the defaults, what npm run deploy applies (but the Namespace): same objects, names and specs', async () => {
    const { stdout } = await run('kubectl', ['kustomize', join(dir, 'config/default')], { maxBuffer: 64 << 20 });
    const deployed = parseAllDocuments(stdout)
      .map((d) => d.toJS() as K8sObject)
      .filter((o) => o.kind !== 'Namespace');
    const rendered = await render('demo-volume-operator', 'demo-volume-operator-system');
    const key = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;
    expect(rendered.map(key).sort()).toEqual(
      // The per-kind admin/editor/viewer roles are for the cluster's users: off by default (rbac.helpers).
      deployed.map(key).filter((k) => !/-(admin|editor|viewer)-role$/.test(k)).sort(),
    );
    // One addition: the image pull policy, a value (helm create's default, IfNotPresent).
    const container = only(rendered, 'Deployment').spec.template.spec.containers[0];
    expect(container.image).toBe(`registry.local:5000/team/demo-volume-operator@${digest}`);
    expect(container.imagePullPolicy).toBe('IfNotPresent');
    delete container.imagePullPolicy;
    for (const object of rendered) {
      const twin = deployed.find((o) => key(o) === key(object))!;
      expect(withoutLabels(object), key(object)).toEqual(withoutLabels(twin));
    }
    // The same selector as kustomize's, narrowed to the release.
    expect(only(rendered, 'Deployment').spec.selector.matchLabels).toEqual({
      'app.kubernetes.io/name': 'demo-volume-operator',
      'app.kubernetes.io/instance': 'demo-volume-operator',
      'control-plane': 'controller-manager',
    });
    expect(only(rendered, 'CustomResourceDefinition').metadata.annotations).toMatchObject({ 'helm.sh/resource-policy': 'keep' });
  });

  it('keeps template-like text in a CRD as it is', async () => {
    const crd = only(await render('demo-volume-operator', 'ops'), 'CustomResourceDefinition');
    expect(crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.foo.description).toBe(
      'foo names the volume, like {{ .Name }} in Go templates: edit demovolume_types.ts to remove or replace it.',
    );
  });

  it('runs two replicas with leader election on --set replicaCount=2', async () => {
    const objects = await render('demo', 'ops', 'replicaCount=2');
    const deployment = only(objects, 'Deployment');
    expect(deployment.spec.replicas).toBe(2);
    expect(managerArgs(objects)).toEqual(['--leader-elect', '--health-probe-bind-address=:8081', '--metrics-bind-address=:8443']);
  });

  it('refuses two replicas without leader election', async () => {
    await expect(render('demo', 'ops', 'replicaCount=2', 'leaderElection.enabled=false')).rejects.toThrow(
      /replicaCount above 1 needs leaderElection.enabled/,
    );
    expect(managerArgs(await render('demo', 'ops', 'leaderElection.enabled=false'))).not.toContain('--leader-elect');
  });

  it('names every object after the release, within 63 characters, and every reference follows', async () => {
    const release = 'a-release-name-that-is-rather-long-for-a-cluster-x';
    const objects = await render(release, 'ops');
    const named = objects.filter((o) => o.kind !== 'CustomResourceDefinition');
    // <release>-<chart> is shortened, never the part that tells the objects apart.
    expect(only(objects, 'Service').metadata.name).toBe('a-release-name-that-is-rathe-controller-manager-metrics-service');
    expect(new Set(named.map((o) => `${o.kind}/${o.metadata.name}`)).size).toBe(named.length);
    for (const object of named) {
      expect(object.metadata.name).toMatch(/^a-release-name-that-is-rathe[a-z-]*-[a-z-]+[a-z]$/);
      expect(object.metadata.name.length).toBeLessThanOrEqual(63);
      if (object.kind !== 'ClusterRole' && object.kind !== 'ClusterRoleBinding') expect(object.metadata.namespace).toBe('ops');
    }
    const serviceAccount = only(objects, 'ServiceAccount').metadata.name;
    expect(only(objects, 'Deployment').spec.template.spec.serviceAccountName).toBe(serviceAccount);
    for (const binding of [...find(objects, 'RoleBinding'), ...find(objects, 'ClusterRoleBinding')]) {
      expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: serviceAccount, namespace: 'ops' }]);
      expect(objects.some((o) => o.kind === (binding.roleRef as { kind: string }).kind && o.metadata.name === (binding.roleRef as { name: string }).name)).toBe(true);
    }
    const config = only(objects, 'ConfigMap');
    expect(config.metadata.name).toBe('a-release-name-that-is-rather-long-for-a-cluster-manager-config');
    expect(only(objects, 'Deployment').spec.template.spec.containers[0].envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }]);
    // Two releases in one namespace select only their own pods.
    const service = only(objects, 'Service');
    expect(service.spec.selector).toEqual(only(objects, 'Deployment').spec.template.metadata.labels);
    expect(service.spec.selector['app.kubernetes.io/instance']).toBe(release);
  });

  it('follows the values for image, lease, flags, metrics, RBAC, CRDs and the service account', async () => {
    const objects = await render(
      'demo',
      'ops',
      'image.repository=registry.example.com/team/demo-volume-operator',
      'image.tag=v1.2.3',
      'image.digest=',
      'leaderElection.leaseName=demo.civo.com',
      'extraArgs={--log-level=debug}',
      'metrics.enable=false',
      'rbac.helpers=true',
      'crd.keep=false',
      'serviceAccount.create=false',
      'serviceAccount.name=operators',
      'resources.limits.memory=1Gi',
    );
    const container = only(objects, 'Deployment').spec.template.spec.containers[0];
    expect(container.image).toBe('registry.example.com/team/demo-volume-operator:v1.2.3');
    expect(container.resources.limits.memory).toBe('1Gi');
    expect(container.args).toEqual([
      '--leader-elect',
      '--leader-election-id=demo.civo.com',
      '--health-probe-bind-address=:8081',
      '--metrics-bind-address=0',
      '--log-level=debug',
    ]);
    expect(find(objects, 'Service')).toEqual([]);
    expect(objects.filter((o) => o.metadata.name.includes('metrics'))).toEqual([]);
    expect(find(objects, 'ServiceAccount')).toEqual([]);
    expect(only(objects, 'Deployment').spec.template.spec.serviceAccountName).toBe('operators');
    expect(only(objects, 'ClusterRoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'operators', namespace: 'ops' }]);
    expect(find(objects, 'ClusterRole', '-role').map((o) => o.metadata.name).sort()).toEqual([
      'demo-demo-volume-operator-demovolume-admin-role',
      'demo-demo-volume-operator-demovolume-editor-role',
      'demo-demo-volume-operator-demovolume-viewer-role',
      'demo-demo-volume-operator-manager-role',
    ]);
    expect(only(objects, 'CustomResourceDefinition').metadata.annotations ?? {}).not.toHaveProperty('helm.sh/resource-policy');

    const none = await render('demo', 'ops', 'crd.enable=false', 'rbac.create=false');
    expect(none.map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Service', 'ServiceAccount']);
  });

  it('adds the ServiceMonitor and the NetworkPolicy on request, on the metrics port', async () => {
    const objects = await render('demo', 'ops', 'prometheus.enable=true', 'networkPolicy.enable=true', 'metrics.port=9443');
    const monitor = only(objects, 'ServiceMonitor');
    const service = only(objects, 'Service');
    expect(monitor.spec.selector.matchLabels).toEqual(service.spec.selector);
    expect(service.spec.ports).toEqual([expect.objectContaining({ port: 9443, targetPort: 9443 })]);
    expect(monitor.spec.endpoints.map((e: { port: string }) => e.port)).toEqual([service.spec.ports[0].name]);
    expect(only(objects, 'Deployment').spec.template.spec.containers[0].ports).toEqual([expect.objectContaining({ containerPort: 9443 })]);
    expect(only(objects, 'NetworkPolicy').spec.ingress[0].ports).toEqual([{ port: 9443, protocol: 'TCP' }]);
    expect(managerArgs(objects)).toContain('--metrics-bind-address=:9443');
  });
});
