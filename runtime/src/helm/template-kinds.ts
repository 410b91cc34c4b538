import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The `apiVersion`/`kind` pairs written literally at the top level of a chart's templates
 * (and its subcharts'), rendered or not with the current values: an object behind
 * `{{ if .Values.service.enabled }}` is found too. Pairs computed by template expressions
 * are not; rendering finds those.
 */
export async function templateKinds(chart: string): Promise<{ apiVersion: string; kind: string }[]> {
  const found = new Map<string, { apiVersion: string; kind: string }>();
  for (const file of await templateFiles(chart)) {
    for (const doc of (await readFile(file, 'utf8')).split(/^---\s*$/m)) {
      const apiVersion = /^apiVersion:\s*["']?([\w.-]+(?:\/[\w.-]+)?)["']?\s*$/m.exec(doc)?.[1];
      const kind = /^kind:\s*["']?([A-Z][A-Za-z0-9]*)["']?\s*$/m.exec(doc)?.[1];
      // Test hooks are never installed (see renderChart): nothing of theirs to watch.
      if (/^\s+helm\.sh\/hook:\s*["']?[^\n]*\btest\b/m.test(doc)) continue;
      if (apiVersion && kind) found.set(`${apiVersion}/${kind}`, { apiVersion, kind });
    }
  }
  return [...found.values()];
}

async function templateFiles(chart: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.ya?ml$/.test(entry.name)) files.push(path);
    }
  };
  await walk(join(chart, 'templates'));
  const subcharts = await readdir(join(chart, 'charts'), { withFileTypes: true }).catch(() => []);
  for (const entry of subcharts.sort((a, b) => a.name.localeCompare(b.name))) if (entry.isDirectory()) files.push(...(await templateFiles(join(chart, 'charts', entry.name))));
  return files;
}
