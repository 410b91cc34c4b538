import type { GeneratedFile } from '../../../writer/index.js';
import { commonLabels, managerSelector, yamlFile } from '../yaml-file.js';
import { metricsPort } from './manager.js';

/**
 * config/default: what `npm run deploy` applies. Everything goes into `<project>-system`
 * with names prefixed `<project>-`, so two operators never collide in one cluster.
 */
export function defaultFiles(projectName: string): GeneratedFile[] {
  return [
    {
      path: 'config/default/kustomization.yaml',
      ownership: 'user',
      content:
        yamlFile(
          [
            'The whole operator: `npm run deploy` applies it with `kubectl apply --server-side -k config/default`.',
            'Every object goes into the namespace below and gets the name prefix below.',
          ],
          {
            namespace: `${projectName}-system`,
            namePrefix: `${projectName}-`,
            resources: ['../crd', '../rbac', '../manager', 'metrics_service.yaml'],
          },
        ) +
        [
          '# Optional, add to resources above:',
          '# - ../prometheus      a ServiceMonitor, for clusters that run the Prometheus operator',
          '# - ../network-policy  lets only namespaces labelled metrics=enabled reach /metrics',
          '',
        ].join('\n'),
    },
    {
      path: 'config/default/metrics_service.yaml',
      ownership: 'user',
      content: yamlFile([], {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          labels: { 'control-plane': 'controller-manager', ...commonLabels(projectName) },
          name: 'controller-manager-metrics-service',
          namespace: 'system',
        },
        spec: {
          ports: [{ name: 'metrics', port: metricsPort, protocol: 'TCP', targetPort: metricsPort }],
          selector: managerSelector(projectName),
        },
      }),
    },
  ];
}
