import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { kubectlBinary, project, projectDir, scaffoldOperator } from './support.js';

// The scaffold's secure-metrics pieces must agree with each other, or Prometheus scrapes
// nothing: the manager's flag, its Service, the ServiceMonitor, the NetworkPolicy and the
// metrics-reader role, as kustomize builds them.

interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  rules?: unknown[];
}

let work: string;
let objects: K8sObject[];

async function build(dir: string, path: string): Promise<K8sObject[]> {
  const { stdout } = await execa(await kubectlBinary(), ['kustomize', join(dir, path)]);
  return parseAllDocuments(stdout).map((d) => d.toJS() as K8sObject);
}

beforeAll(async () => {
  let dir: string;
  ({ work, dir } = await projectDir());
  await scaffoldOperator(dir);
  objects = [...(await build(dir, 'config/default')), ...(await build(dir, 'config/prometheus')), ...(await build(dir, 'config/network-policy'))];
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const find = (kind: string, suffix: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name.endsWith(suffix));
  if (!found) throw new Error(`no ${kind} *${suffix}`);
  return found;
};

describe('secure metrics in the scaffolded config', () => {
  it('lines up the manager\'s HTTPS port, its Service, the ServiceMonitor and the NetworkPolicy', () => {
    const deployment = find('Deployment', 'controller-manager') as { spec: { template: { spec: { containers: { args: string[] }[] } } } } & K8sObject;
    const args = deployment.spec.template.spec.containers[0]!.args;
    expect(args).toContain('--metrics-bind-address=:8443');
    // --metrics-secure is on unless turned off.
    expect(args.filter((a) => a.startsWith('--metrics-secure'))).toEqual([]);

    const service = find('Service', 'metrics-service') as K8sObject & { spec: { ports: { name: string; port: number; targetPort: number }[]; selector: Record<string, string> } };
    expect(service.spec.ports).toEqual([expect.objectContaining({ name: 'https', port: 8443, targetPort: 8443 })]);

    const monitor = find('ServiceMonitor', 'metrics-monitor') as K8sObject & {
      spec: { endpoints: Record<string, unknown>[]; selector: { matchLabels: Record<string, string> } };
    };
    expect(monitor.spec.endpoints).toEqual([
      {
        path: '/metrics',
        port: 'https',
        scheme: 'https',
        bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
        tlsConfig: { insecureSkipVerify: true },
      },
    ]);
    expect(service.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);

    const policy = find('NetworkPolicy', 'allow-metrics-traffic') as K8sObject & {
      spec: { podSelector: { matchLabels: Record<string, string> }; ingress: { ports: { port: number }[] }[] };
    };
    expect(policy.spec.ingress.flatMap((rule) => rule.ports.map((p) => p.port))).toEqual([8443]);
    expect(policy.spec.podSelector.matchLabels).toEqual(service.spec.selector);
  });

  it('lets the manager review tokens and access, and readers get /metrics only', () => {
    expect(find('ClusterRole', 'metrics-auth-role').rules).toEqual([
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
    const binding = find('ClusterRoleBinding', 'metrics-auth-rolebinding') as K8sObject & { roleRef: { name: string }; subjects: unknown[] };
    expect(binding.roleRef.name).toBe(`${project.name}-metrics-auth-role`);
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: project.serviceAccount, namespace: project.namespace }]);
    expect(find('ClusterRole', 'metrics-reader').rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
  });
});
