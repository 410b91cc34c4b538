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
            'The whole operator: `npm run deploy` applies it (kubectl\'s kustomize, server-side apply) with',
            'the manager\'s image set, `npm run undeploy` deletes it, `npm run build-installer` writes it to',
            'dist/install.yaml. Every object goes into the namespace below, gets the name prefix below and',
            'carries the labels below, so `kubectl get <kind> -l app.kubernetes.io/name=<project>` finds it.',
          ],
          {
            namespace: `${projectName}-system`,
            namePrefix: `${projectName}-`,
            labels: [{ pairs: commonLabels(projectName) }],
            resources: ['../crd', '../rbac', '../manager', 'metrics_service.yaml'],
          },
        ) +
        [
          '# Optional, add to resources above:',
          '# - ../prometheus      a ServiceMonitor, for clusters that run the Prometheus operator',
          '# - ../network-policy  lets only pods in namespaces labelled metrics=enabled reach /metrics',
          '',
        ].join('\n'),
    },
    {
      path: 'config/default/metrics_service.yaml',
      ownership: 'user',
      content: yamlFile(['The manager serves /metrics here over HTTPS, to callers with a token allowed by the metrics-reader role.'], {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          labels: { 'control-plane': 'controller-manager', ...commonLabels(projectName) },
          name: 'controller-manager-metrics-service',
          namespace: 'system',
        },
        spec: {
          ports: [{ name: 'https', port: metricsPort, protocol: 'TCP', targetPort: metricsPort }],
          selector: managerSelector(projectName),
        },
      }),
    },
  ];
}
