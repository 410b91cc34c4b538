import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair } from 'yaml';
import { UserError } from '../../errors.js';
import { SELECTOR, dashboardUid, type Dashboard, type Panel, type Query } from './dashboard.js';

/** Where the user lists their own metrics, as kubebuilder's grafana plugin keeps it. */
export const customMetricsConfigPath = 'grafana/custom-metrics/config.yaml';

/** The dashboard made from that list on the next `opgen edit --plugins grafana`. */
export const customMetricsDashboardPath = 'grafana/custom-metrics/custom-metrics-dashboard.json';

/** One entry of `customMetrics`, with kubebuilder's keys. */
export interface CustomMetric {
  metric?: string;
  type?: 'counter' | 'gauge' | 'histogram';
  expr?: string;
  unit?: string;
}

const TYPES = ['counter', 'gauge', 'histogram'] as const;
const KEYS = ['metric', 'type', 'expr', 'unit'];
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/** The config.yaml written once: a commented example, so the first run adds no dashboard. */
export function customMetricsConfigTemplate(): string {
  return `# Your operator's own metrics, for grafana/custom-metrics/custom-metrics-dashboard.json.
# List them here, then run \`opgen edit --plugins grafana\` again: each entry becomes a panel.
# Register the metrics on the manager's registry (mgr.metrics.registry) to have them
# served on /metrics next to the runtime's.
#
#   metric: the name /metrics shows (required unless expr is given)
#   type:   counter, gauge or histogram (required unless expr is given); a counter is shown
#           as a rate, a histogram as its 50th, 90th and 99th percentile, a gauge as it is
#   expr:   PromQL to show instead; $job and $namespace are the dashboard's variables
#   unit:   a Grafana unit such as s, bytes, percent, reqps or short (default short)
customMetrics:
#  - metric: bookstore_books_sold_total
#    type: counter
#  - metric: bookstore_restock_duration_seconds
#    type: histogram
#    unit: s
#  - expr: sum(bookstore_books_in_stock{job=~"$job", namespace=~"$namespace"})
#    unit: short
`;
}

/**
 * The entries of config.yaml (`text`). Refuses, with the line and column, what kubebuilder's
 * plugin would skip without a word: an entry with neither `expr` nor `metric` and a known
 * `type`, an unknown key, a value that is not a string.
 */
export function parseCustomMetrics(text: string): CustomMetric[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const fail = (message: string, offset: number | undefined, hint?: string): never => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    throw new UserError(message, { file: customMetricsConfigPath, line, column: col }, hint);
  };
  const at = (node: Node | Pair | null | undefined) => (node && 'range' in node ? node.range?.[0] : undefined);
  const error = doc.errors[0];
  if (error) fail(`not valid YAML: ${error.message.split('\n')[0]}`, error.pos[0]);
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) return [];
  const root = doc.contents;
  if (!isMap(root)) return fail('the file must be a mapping with a customMetrics list', at(root));
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key !== 'customMetrics') fail(`unknown key "${key}"`, at(pair.key as Node), 'the file has one key, customMetrics');
  }
  const list = doc.get('customMetrics', true) as Node | undefined;
  if (list === undefined || (isScalar(list) && list.value === null)) return [];
  if (!isSeq(list)) return fail('customMetrics must be a list', at(list));
  return list.items.map((item) => {
    if (!isMap(item)) return fail('each entry of customMetrics must be a mapping with metric and type, or expr', at(item as Node));
    const entry: Record<string, string> = {};
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!KEYS.includes(key)) fail(`unknown key "${key}" in a customMetrics entry`, at(pair.key as Node), `known keys: ${KEYS.join(', ')}`);
      const value = pair.value as Node | null;
      if (!isScalar(value) || typeof value.value !== 'string' || value.value.trim() === '') {
        fail(`${key} must be a non-empty string`, at(value) ?? at(pair.key as Node));
      }
      entry[key] = ((value as { value: string }).value).trim();
    }
    const metric: CustomMetric = {};
    if (entry.metric !== undefined) {
      if (!METRIC_NAME.test(entry.metric)) fail(`"${entry.metric}" is not a Prometheus metric name`, at(item.get('metric', true) as Node));
      metric.metric = entry.metric;
    }
    if (entry.type !== undefined) {
      const type = entry.type.toLowerCase();
      if (!(TYPES as readonly string[]).includes(type)) {
        fail(`unknown metric type "${entry.type}"`, at(item.get('type', true) as Node), `one of ${TYPES.join(', ')}`);
      }
      metric.type = type as CustomMetric['type'];
    }
    if (entry.expr !== undefined) metric.expr = entry.expr;
    if (entry.unit !== undefined) metric.unit = entry.unit;
    if (metric.expr === undefined && (metric.metric === undefined || metric.type === undefined)) {
      fail('a customMetrics entry needs metric and type, or expr', at(item), 'e.g. metric: myapp_items_total and type: counter');
    }
    return metric;
  });
}

/** The queries that show `metric`: its `expr`, else the default for its type. */
function queries(metric: CustomMetric): Query[] {
  if (metric.expr !== undefined) return [{ expr: metric.expr, legend: '{{instance}}' }];
  const name = metric.metric!;
  switch (metric.type!) {
    case 'counter':
      return [{ expr: `sum by (instance) (rate(${name}{${SELECTOR}}[$__rate_interval]))`, legend: '{{instance}}' }];
    case 'gauge':
      return [{ expr: `sum by (instance) (${name}{${SELECTOR}})`, legend: '{{instance}}' }];
    case 'histogram': {
      // kubebuilder's config names the _bucket series; the family's name means the same.
      const buckets = name.endsWith('_bucket') ? name : `${name}_bucket`;
      return [0.5, 0.9, 0.99].map((q) => ({
        expr: `histogram_quantile(${q}, sum by (instance, le) (rate(${buckets}{${SELECTOR}}[$__rate_interval])))`,
        legend: `{{instance}} p${Math.round(q * 100)}`,
      }));
    }
  }
}

function panel(metric: CustomMetric): Panel {
  const shown = metric.type === 'counter' ? 'per second' : metric.type === 'histogram' ? '50th, 90th and 99th percentile' : 'as exported';
  return {
    title: metric.metric ?? metric.expr!,
    description: metric.expr !== undefined ? `From grafana/custom-metrics/config.yaml: ${metric.expr}` : `${metric.metric} (${metric.type}), ${shown}.`,
    unit: metric.unit ?? 'short',
    queries: queries(metric),
  };
}

/** The dashboard of the user's own metrics, one panel per entry in the order listed. */
export function customMetricsDashboard(projectName: string, metrics: readonly CustomMetric[]): Dashboard {
  return {
    title: `${projectName}: custom metrics`,
    uid: dashboardUid(projectName, 'custom-metrics'),
    tags: ['opgen', projectName],
    rows: [{ title: 'Custom metrics', panels: metrics.map(panel) }],
  };
}
