import type { LocalChart } from './chart.js';

/**
 * The `apiVersion`/`kind` pairs written literally at the top level of the chart's templates
 * (its subcharts' included), also behind conditions its default values leave off, so the
 * manager's role covers them; test hooks left out, as the operator never installs them.
 * The runtime finds the same pairs to decide what to watch.
 */
export function templateKinds(chart: LocalChart): { apiVersion: string; kind: string }[] {
  const found = new Map<string, { apiVersion: string; kind: string }>();
  for (const file of chart.files.filter((f) => /(^|\/)templates\/.*\.ya?ml$/.test(f.path))) {
    for (const doc of file.content.split(/^---\s*$/m)) {
      const apiVersion = /^apiVersion:\s*["']?([\w.-]+(?:\/[\w.-]+)?)["']?\s*$/m.exec(doc)?.[1];
      const kind = /^kind:\s*["']?([A-Z][A-Za-z0-9]*)["']?\s*$/m.exec(doc)?.[1];
      if (/^\s+helm\.sh\/hook:\s*["']?[^\n]*\btest\b/m.test(doc)) continue;
      if (apiVersion && kind) found.set(`${apiVersion}/${kind}`, { apiVersion, kind });
    }
  }
  return [...found.values()];
}
