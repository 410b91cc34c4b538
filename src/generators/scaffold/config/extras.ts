import type { GeneratedFile } from '../../../writer/index.js';
import { commonLabels, managerSelector, yamlFile } from '../yaml-file.js';
import { metricsPort } from './manager.js';

/** config/prometheus: a ServiceMonitor for the metrics Service (needs the Prometheus operator's CRDs). */
export function prometheusFiles(projectName: string): GeneratedFile[] {
  return [
    { path: 'config/prometheus/kustomization.yaml', ownership: 'user', content: yamlFile([], { resources: ['monitor.yaml'] }) },
    {
      path: 'config/prometheus/monitor.yaml',
      ownership: 'user',
      content: yamlFile(['Tells the Prometheus operator to scrape the manager\'s /metrics.'], {
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'ServiceMonitor',
        metadata: {
          labels: { 'control-plane': 'controller-manager', ...commonLabels(projectName) },
          name: 'controller-manager-metrics-monitor',
          namespace: 'system',
        },
        spec: {
          endpoints: [{ path: '/metrics', port: 'metrics', scheme: 'http' }],
          selector: { matchLabels: managerSelector(projectName) },
        },
      }),
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
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'NetworkPolicy',
          metadata: { labels: commonLabels(projectName), name: 'allow-metrics-traffic', namespace: 'system' },
          spec: {
            podSelector: { matchLabels: managerSelector(projectName) },
            policyTypes: ['Ingress'],
            ingress: [
              {
                from: [{ namespaceSelector: { matchLabels: { metrics: 'enabled' } } }],
                ports: [{ port: metricsPort, protocol: 'TCP' }],
              },
            ],
          },
        },
      ),
    },
  ];
}
