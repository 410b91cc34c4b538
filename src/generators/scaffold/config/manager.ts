import type { GeneratedFile } from '../../../writer/index.js';
import { commonLabels, managerSelector, yamlFile } from '../yaml-file.js';

/** The port the manager serves /metrics on in the cluster. */
export const metricsPort = 8443;
/** The port of the manager's /healthz and /readyz in the cluster. */
export const healthPort = 8081;

/**
 * config/manager: the namespace and the Deployment running `node dist/main.js`, locked down
 * to the "restricted" Pod Security Standard (non-root, read-only root filesystem, no
 * privilege escalation, no capabilities, the runtime's default seccomp profile).
 */
export function managerFiles(projectName: string, namespaced: boolean, multicluster = false): GeneratedFile[] {
  const labels = { 'control-plane': 'controller-manager', ...commonLabels(projectName) };
  const selector = managerSelector(projectName);
  const container = {
    name: 'manager',
    image: 'controller:latest',
    command: ['node', 'dist/main.js'],
    args: ['--leader-elect', `--health-probe-bind-address=:${healthPort}`, `--metrics-bind-address=:${metricsPort}`],
    // The namespace a namespaced operator watches: its own.
    ...(namespaced ? { env: [{ name: 'WATCH_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }] } : {}),
    // Where a multi-cluster manager finds the kubeconfig Secrets of its fleet: its own namespace.
    ...(multicluster ? { env: [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }] } : {}),
    ports: [{ containerPort: metricsPort, name: 'metrics', protocol: 'TCP' }],
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    },
    livenessProbe: { httpGet: { path: '/healthz', port: healthPort }, initialDelaySeconds: 15, periodSeconds: 20 },
    readinessProbe: { httpGet: { path: '/readyz', port: healthPort }, initialDelaySeconds: 5, periodSeconds: 10 },
    resources: { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '10m', memory: '128Mi' } },
  };
  return [
    {
      path: 'config/manager/kustomization.yaml',
      ownership: 'user',
      content: yamlFile(
        ['Point `newName`/`newTag` at the image you pushed (or run `kustomize edit set image controller=<image>` here).'],
        { resources: ['manager.yaml'], images: [{ name: 'controller', newName: 'controller', newTag: 'latest' }] },
      ),
    },
    {
      path: 'config/manager/manager.yaml',
      ownership: 'user',
      content: yamlFile(
        [],
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          // Pods in it must meet the "restricted" Pod Security Standard, the manager's included.
          metadata: { labels: { ...labels, 'pod-security.kubernetes.io/enforce': 'restricted' }, name: 'system' },
        },
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'controller-manager', namespace: 'system', labels },
          spec: {
            selector: { matchLabels: selector },
            replicas: 1,
            template: {
              metadata: { annotations: { 'kubectl.kubernetes.io/default-container': 'manager' }, labels: selector },
              spec: {
                securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
                containers: [container],
                serviceAccountName: 'controller-manager',
                // Longer than the manager's 30 s graceful shutdown, so in-flight reconciles can finish.
                terminationGracePeriodSeconds: 40,
              },
            },
          },
        },
      ),
    },
  ];
}
