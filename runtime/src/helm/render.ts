import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAllYaml } from '@kubernetes/client-node';
import type { KubeObject } from '../object.js';
import type { Values } from './values.js';

/** What {@link renderChart} needs. */
export interface RenderOptions {
  /** The helm binary; default `$HELM`, else `helm` on the PATH. */
  helm?: string;
  chart: string;
  release: string;
  namespace: string;
  values: Values;
  signal?: AbortSignal;
}

/** A chart's rendering: the manifest as helm printed it and the objects in it. */
export interface Rendered {
  manifest: string;
  objects: KubeObject[];
}

/** A chart that helm could not render with these values; `message` is helm's own. */
export class RenderError extends Error {
  override name = 'RenderError';
}

/**
 * Renders `chart` as release `release` with `helm template`: the same templates, functions
 * and built-in objects (`.Release`, `.Capabilities`) as an install, without helm storing a
 * release. The values travel in a temporary file (JSON is YAML), never on the command line.
 */
export async function renderChart(options: RenderOptions): Promise<Rendered> {
  const dir = await mkdtemp(join(tmpdir(), 'opgen-helm-'));
  try {
    const valuesFile = join(dir, 'values.json');
    await writeFile(valuesFile, JSON.stringify(options.values));
    // Test hooks are for `helm test`, which an install never runs.
    const args = ['template', options.release, options.chart, '--namespace', options.namespace, '--values', valuesFile, '--skip-tests'];
    const manifest = await run(options.helm ?? process.env.HELM ?? 'helm', args, options.signal);
    const objects = (loadAllYaml(manifest) as unknown[]).filter((doc): doc is KubeObject => typeof doc === 'object' && doc !== null);
    for (const object of objects) {
      if (!object.apiVersion || !object.kind || !object.metadata?.name) {
        throw new RenderError(`chart ${options.chart} rendered an object without apiVersion, kind or metadata.name`);
      }
    }
    return { manifest, objects };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(helm: string, args: string[], signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(helm, args, { signal, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      if (error.name === 'AbortError') return reject(error);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error(`helm binary ${helm} not found: set HELM or put helm on the PATH`));
      reject(new RenderError(helmMessage(stderr) || error.message));
    });
  });
}

/** helm's error on one line, from its `Error:` line on (a values.schema.json failure lists each problem below it), without the warnings before it. */
function helmMessage(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter(Boolean);
  const start = lines.findIndex((line) => line.startsWith('Error:'));
  const kept = start >= 0 ? lines.slice(start) : lines.slice(-1);
  return kept.filter((line) => !line.startsWith('Use --debug')).join(' ').replace(/^Error:\s*/, '');
}
