/**
 * Grafana dashboards for a project's metrics (`opgen edit --plugins grafana`), laid out like
 * kubebuilder's grafana plugin: grafana/controller-runtime-metrics.json and
 * grafana/controller-resources-metrics.json from the series @opgen/runtime exports, and
 * grafana/custom-metrics/config.yaml, whose entries become
 * grafana/custom-metrics/custom-metrics-dashboard.json on the next run.
 *
 * @module
 */
import type { GeneratedFile } from '../../writer/index.js';
import {
  customMetricsConfigPath,
  customMetricsConfigTemplate,
  customMetricsDashboard,
  customMetricsDashboardPath,
  parseCustomMetrics,
} from './custom-metrics.js';
import { dashboardJson } from './dashboard.js';
import { resourcesDashboard } from './resources-dashboard.js';
import { runtimeDashboard } from './runtime-dashboard.js';

export { customMetricsConfigPath, parseCustomMetrics, type CustomMetric } from './custom-metrics.js';
export { DATASOURCE_VARIABLE, type Dashboard } from './dashboard.js';

/**
 * The dashboards' files. `customConfig` is the text of config.yaml when the project has it:
 * its entries make the custom-metrics dashboard (none when it lists none). The dashboards
 * are rewritten on every run; config.yaml is written once and then is the user's.
 * Throws a located UserError for a config.yaml it cannot read.
 */
export function grafanaFiles(projectName: string, customConfig: string | undefined): GeneratedFile[] {
  const files: GeneratedFile[] = [
    { path: 'grafana/controller-runtime-metrics.json', content: dashboardJson(runtimeDashboard(projectName)), ownership: 'generated' },
    { path: 'grafana/controller-resources-metrics.json', content: dashboardJson(resourcesDashboard(projectName)), ownership: 'generated' },
    { path: customMetricsConfigPath, content: customMetricsConfigTemplate(), ownership: 'once' },
  ];
  const metrics = customConfig === undefined ? [] : parseCustomMetrics(customConfig);
  if (metrics.length > 0) {
    files.push({ path: customMetricsDashboardPath, content: dashboardJson(customMetricsDashboard(projectName, metrics)), ownership: 'generated' });
  }
  return files;
}
