import { readdir, readFile, stat } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { parse } from 'yaml';
import { UserError } from '../../errors.js';

/** A local chart as `create api --helm-chart` copies it. */
export interface LocalChart {
  /** `name` of Chart.yaml: the folder under helm-charts/. */
  name: string;
  /** Every file, relative to the chart's folder with `/` separators, sorted. */
  files: { path: string; content: string }[];
  /** values.yaml as data (`{}` when absent): the sample's spec. */
  values: Record<string, unknown>;
  /** values.schema.json's text, when the chart has one. */
  schema?: string;
}

/**
 * Reads the chart in `dir`. Files are copied as text: a packaged subchart (`charts/*.tgz`)
 * is refused by name rather than corrupted, with the way out (unpack it).
 */
export async function readLocalChart(dir: string, shownAs: string): Promise<LocalChart> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new UserError(`--helm-chart ${shownAs}: no such directory`, undefined, 'give a chart\'s directory; a chart from a repository needs helm pull --untar first');
  }
  const chartFile = join(dir, 'Chart.yaml');
  const chartText = await readFile(chartFile, 'utf8').catch(() => undefined);
  if (chartText === undefined) throw new UserError(`--helm-chart ${shownAs}: not a chart (no Chart.yaml)`);
  const chart = parseYaml(chartText, posix.join(shownAs, 'Chart.yaml')) as { name?: unknown } | null;
  if (typeof chart?.name !== 'string' || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(chart.name)) {
    throw new UserError('Chart.yaml: name must be a lower-case chart name', { file: posix.join(shownAs, 'Chart.yaml') });
  }
  const files: LocalChart['files'] = [];
  for (const path of await walk(dir)) {
    const bytes = await readFile(join(dir, path));
    const content = bytes.toString('utf8');
    if (!Buffer.from(content, 'utf8').equals(bytes)) {
      throw new UserError(`${posix.join(shownAs, path)} is not a text file; opgen copies charts as text`, undefined, 'unpack packaged subcharts (tar xzf) into charts/ first');
    }
    files.push({ path, content });
  }
  const valuesText = files.find((f) => f.path === 'values.yaml')?.content;
  const values = (valuesText ? parseYaml(valuesText, posix.join(shownAs, 'values.yaml')) : {}) ?? {};
  if (typeof values !== 'object' || Array.isArray(values)) throw new UserError('values.yaml must be a mapping', { file: posix.join(shownAs, 'values.yaml') });
  const schema = files.find((f) => f.path === 'values.schema.json')?.content;
  return { name: chart.name, files, values: values as Record<string, unknown>, ...(schema !== undefined && { schema }) };
}

async function walk(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(root, full)));
    else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
  }
  return out;
}

function parseYaml(text: string, file: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    const pos = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    throw new UserError(`not YAML: ${(error as Error).message.split('\n')[0]}`, { file, ...(pos && { line: pos.line, column: pos.col }) });
  }
}
