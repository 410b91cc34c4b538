import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { loadYaml } from '@kubernetes/client-node';
import { parseDuration } from '../helpers/duration.js';
import type { LabelSelector } from './selector.js';

/** One entry of watches.yaml: a kind reconciled by a chart (operator-sdk's fields). */
export interface ChartWatch {
  group: string;
  version: string;
  kind: string;
  /** The chart's directory, resolved against the watches file's directory. */
  chart: string;
  /** Watch the objects the chart renders and repair them when they drift; default true. */
  watchDependentResources: boolean;
  /** helm `--set` paths and values (with `$ENV` expansion) that win over the CR's spec. */
  overrideValues: Record<string, string>;
  /** Re-reconcile every CR this often even without events, in ms; default 60 000 (operator-sdk's 1m). */
  reconcilePeriodMs: number;
  maxConcurrentReconciles: number;
  /** Reconcile only the CRs whose labels match. */
  selector?: LabelSelector;
}

const FIELDS = new Set(['group', 'version', 'kind', 'chart', 'watchDependentResources', 'overrideValues', 'reconcilePeriod', 'maxConcurrentReconciles', 'selector', 'dryRunOption']);
const DEFAULT_RECONCILE_PERIOD_MS = 60_000;

/** Reads and checks a watches file; errors name the file and the entry. */
export async function readWatches(file: string): Promise<ChartWatch[]> {
  return parseWatches(await readFile(file, 'utf8'), file);
}

/**
 * Parses watches.yaml as operator-sdk's helm operator reads it. A field opgen cannot honour
 * is refused by name rather than ignored, so an operator moved over behaves as it did.
 */
export function parseWatches(text: string, file: string): ChartWatch[] {
  let doc: unknown;
  try {
    doc = loadYaml(text);
  } catch (error) {
    const mark = (error as { mark?: { line: number; column: number } }).mark;
    const where = mark ? `${file}:${mark.line + 1}:${mark.column + 1}` : file;
    throw new Error(`${where}: not YAML: ${(error as { reason?: string }).reason ?? (error as Error).message}`);
  }
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) throw new Error(`${file}: expected a list of watches`);
  return doc.map((entry, index) => parseEntry(entry, `${file}: watch ${index + 1}`, dirname(resolve(file))));
}

function parseEntry(entry: unknown, where: string, base: string): ChartWatch {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error(`${where}: expected a mapping`);
  const e = entry as Record<string, unknown>;
  for (const key of Object.keys(e)) if (!FIELDS.has(key)) throw new Error(`${where}: unknown field ${key}`);
  const text = (key: string): string => {
    if (typeof e[key] !== 'string' || e[key] === '') throw new Error(`${where}: ${key} must be a non-empty string`);
    return e[key] as string;
  };
  const kind = text('kind');
  const at = `${where} (${kind})`;
  if (e.dryRunOption !== undefined && e.dryRunOption !== 'client' && e.dryRunOption !== 'none') {
    throw new Error(`${at}: dryRunOption ${String(e.dryRunOption)} is not supported: opgen renders with helm template, client side, so lookup() sees no cluster`);
  }
  const overrides = e.overrideValues ?? {};
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) throw new Error(`${at}: overrideValues must be a mapping`);
  const overrideValues = Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  let reconcilePeriodMs = DEFAULT_RECONCILE_PERIOD_MS;
  if (e.reconcilePeriod !== undefined) {
    const parsed = typeof e.reconcilePeriod === 'string' ? parseDuration(e.reconcilePeriod) : undefined;
    if (parsed === undefined) throw new Error(`${at}: reconcilePeriod must be a duration such as 1m or 30s`);
    reconcilePeriodMs = parsed;
  }
  const workers = e.maxConcurrentReconciles ?? 1;
  if (!Number.isInteger(workers) || (workers as number) < 1) throw new Error(`${at}: maxConcurrentReconciles must be a positive integer`);
  if (e.watchDependentResources !== undefined && typeof e.watchDependentResources !== 'boolean') throw new Error(`${at}: watchDependentResources must be true or false`);
  return {
    group: text('group'),
    version: text('version'),
    kind,
    chart: resolve(base, text('chart')),
    watchDependentResources: (e.watchDependentResources as boolean | undefined) ?? true,
    overrideValues,
    reconcilePeriodMs,
    maxConcurrentReconciles: workers as number,
    ...(e.selector !== undefined && { selector: e.selector as LabelSelector }),
  };
}
