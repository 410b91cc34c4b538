import type { GeneratedFile } from '../../../writer/index.js';
import { commonLabels, managerSelector, yamlFile } from '../yaml-file.js';
import { metricsPort } from './manager.js';

/** config/prometheus: a ServiceMonitor for the HTTPS metrics Service (needs the Prometheus operator's CRDs). */
export function prometheusFiles(projectName: string): GeneratedFile[] {
  return [
    { path: 'config/prometheus/kustomization.yaml', ownership: 'user', content: yamlFile([], { resources: ['monitor.yaml'] }) },
    {
      path: 'config/prometheus/monitor.yaml',
      ownership: 'user',
      content: yamlFile(
        [
          'Tells the Prometheus operator to scrape the manager\'s /metrics: over HTTPS, with Prometheus\'s',
          'service account token, which the manager has the API server check (bind the metrics-reader',
          'role to that service account, see config/rbac/metrics_reader_role.yaml).',
          '',
          'insecureSkipVerify: the manager serves a self-signed certificate it makes at start, which',
          'nothing can verify. In production give it one from cert-manager instead: mount the',
          'Certificate\'s Secret into the manager, pass --metrics-cert-path=<mount dir>, and replace',
          'insecureSkipVerify with tlsConfig.ca (the Secret\'s ca.crt) and serverName (the Service\'s DNS name).',
        ],
        {
          apiVersion: 'monitoring.coreos.com/v1',
          kind: 'ServiceMonitor',
          metadata: {
            labels: { 'control-plane': 'controller-manager', ...commonLabels(projectName) },
            name: 'controller-manager-metrics-monitor',
            namespace: 'system',
          },
          spec: {
            endpoints: [
              {
                path: '/metrics',
                port: 'https',
                scheme: 'https',
                bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
                tlsConfig: { insecureSkipVerify: true },
              },
            ],
            selector: { matchLabels: managerSelector(projectName) },
          },
        },
      ),
    },
  ];
}

/** config/network-policy: only pods in namespaces labelled `metrics: enabled` reach the metrics port. */
export function networkPolicyFiles(projectName: string): GeneratedFile[] {
  return [
    {
      path: 'config/network-policy/kustomization.yaml',
      ownership: 'user',
      content: yamlFile([], { resources: ['allow-metrics-traffic.yaml'] }),
    },
    {
      path: 'config/network-policy/allow-metrics-traffic.yaml',
      ownership: 'user',
      content: yamlFile(
        ['Admits traffic to the metrics port only from namespaces labelled metrics=enabled (e.g. Prometheus\'s).'],
        managerIngressPolicy(projectName, 'allow-metrics-traffic', {
          from: [{ namespaceSelector: { matchLabels: { metrics: 'enabled' } } }],
          ports: [{ port: metricsPort, protocol: 'TCP' }],
        }),
      ),
    },
  ];
}

/** A NetworkPolicy of config/network-policy admitting `rule`'s traffic to the manager's pods. */
export function managerIngressPolicy(projectName: string, name: string, rule: object): object {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { labels: commonLabels(projectName), name, namespace: 'system' },
    spec: { podSelector: { matchLabels: managerSelector(projectName) }, policyTypes: ['Ingress'], ingress: [rule] },
  };
}
