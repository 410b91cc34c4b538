/**
 * Grafana dashboards as plain data: a dashboard is rows of time-series panels, each panel
 * one or more PromQL queries. Layout, ids and JSON are derived here so every dashboard
 * opgen writes is laid out the same way and comes out byte for byte the same on each run.
 *
 * @module
 */
import { createHash } from 'node:crypto';

/** One PromQL query of a panel, with the legend Grafana shows for its series. */
export interface Query {
  expr: string;
  legend: string;
}

/** A time-series panel. `unit` is a Grafana unit id (`s`, `bytes`, `ops`, `short`, ...). */
export interface Panel {
  title: string;
  description: string;
  unit: string;
  queries: Query[];
}

/** A titled row of panels, two to a line. */
export interface Row {
  title: string;
  panels: Panel[];
}

/** What a dashboard shows; {@link dashboardJson} turns it into Grafana's model. */
export interface Dashboard {
  title: string;
  /** Grafana's `uid`: importing the file again replaces the dashboard instead of adding one. */
  uid: string;
  tags: string[];
  rows: Row[];
}

/**
 * The datasource variable every panel queries through: the importer (or the dropdown)
 * picks the Prometheus that scrapes the operator, so no datasource id is baked in.
 */
export const DATASOURCE_VARIABLE = 'DS_PROMETHEUS';

/** Selects the operator's series by the dashboard's `job` and `namespace` variables. */
export const SELECTOR = 'job=~"$job", namespace=~"$namespace"';

const datasource = { type: 'prometheus', uid: `\${${DATASOURCE_VARIABLE}}` };

/** The metric the `job` and `namespace` variables list their values from: every manager exports it. */
const VARIABLE_SOURCE = 'controller_runtime_reconcile_total';

const PANEL_HEIGHT = 8;
const HALF_WIDTH = 12;

/**
 * A Grafana `uid` (at most 40 characters) for one of a project's dashboards; a long name is
 * cut and suffixed with a hash of the whole so two projects never share one.
 */
export function dashboardUid(projectName: string, dashboard: string): string {
  const uid = `${projectName}-${dashboard}`;
  if (uid.length <= 40) return uid;
  const hash = createHash('sha256').update(uid).digest('hex').slice(0, 8);
  return `${uid.slice(0, 31)}-${hash}`;
}

/** The dashboard as the JSON Grafana imports, ending in a newline. */
export function dashboardJson(dashboard: Dashboard): string {
  return `${JSON.stringify(dashboardModel(dashboard), null, 2)}\n`;
}

function dashboardModel(dashboard: Dashboard): Record<string, unknown> {
  const panels: Record<string, unknown>[] = [];
  let id = 1;
  let y = 0;
  for (const row of dashboard.rows) {
    panels.push({ collapsed: false, gridPos: { h: 1, w: 24, x: 0, y }, id: id++, panels: [], title: row.title, type: 'row' });
    y += 1;
    row.panels.forEach((panel, i) => {
      const x = (i % 2) * HALF_WIDTH;
      // The last panel of an odd row spans the whole width.
      const w = i === row.panels.length - 1 && i % 2 === 0 ? 24 : HALF_WIDTH;
      panels.push(panelModel(panel, id++, { h: PANEL_HEIGHT, w, x, y }));
      if (x !== 0 || w === 24) y += PANEL_HEIGHT;
    });
  }
  return {
    annotations: { list: [] },
    editable: true,
    fiscalYearStartMonth: 0,
    graphTooltip: 1,
    links: [],
    panels,
    refresh: '30s',
    schemaVersion: 39,
    tags: dashboard.tags,
    templating: { list: variables() },
    time: { from: 'now-1h', to: 'now' },
    timepicker: {},
    timezone: '',
    title: dashboard.title,
    uid: dashboard.uid,
    version: 1,
  };
}

function panelModel(panel: Panel, id: number, gridPos: Record<string, number>): Record<string, unknown> {
  return {
    datasource,
    description: panel.description,
    fieldConfig: {
      defaults: {
        custom: { drawStyle: 'line', fillOpacity: 10, lineWidth: 1, showPoints: 'never', spanNulls: false },
        unit: panel.unit,
      },
      overrides: [],
    },
    gridPos,
    id,
    options: {
      legend: { calcs: [], displayMode: 'list', placement: 'bottom', showLegend: true },
      tooltip: { mode: 'multi', sort: 'desc' },
    },
    targets: panel.queries.map((query, i) => ({
      datasource,
      editorMode: 'code',
      expr: query.expr,
      legendFormat: query.legend,
      range: true,
      refId: String.fromCharCode(65 + i),
    })),
    title: panel.title,
    type: 'timeseries',
  };
}

function variables(): Record<string, unknown>[] {
  const labelVariable = (name: string, label: string, query: string) => ({
    allValue: '.*',
    current: {},
    datasource,
    definition: query,
    hide: 0,
    includeAll: true,
    label,
    multi: true,
    name,
    options: [],
    query: { qryType: 1, query, refId: 'PrometheusVariableQueryEditor-VariableQuery' },
    refresh: 2,
    regex: '',
    sort: 1,
    type: 'query',
  });
  return [
    {
      current: {},
      hide: 0,
      includeAll: false,
      label: 'Prometheus',
      multi: false,
      name: DATASOURCE_VARIABLE,
      options: [],
      query: 'prometheus',
      refresh: 1,
      regex: '',
      type: 'datasource',
    },
    labelVariable('namespace', 'Namespace', `label_values(${VARIABLE_SOURCE}, namespace)`),
    labelVariable('job', 'Job', `label_values(${VARIABLE_SOURCE}{namespace=~"$namespace"}, job)`),
  ];
}
