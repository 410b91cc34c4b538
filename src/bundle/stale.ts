import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { GeneratedFile } from '../writer/index.js';
import { bundleDir } from './generate.js';

/**
 * Files in bundle/manifests that this run does not generate: left there, OLM would install
 * them too (an object dropped from config/, a kind deleted). They go once the bundle is written.
 */
export async function staleManifests(root: string, files: readonly GeneratedFile[]): Promise<string[]> {
  const dir = `${bundleDir}/manifests`;
  const wanted = new Set(files.map((f) => f.path));
  const present = await readdir(join(root, dir)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return present
    .map((name) => `${dir}/${name}`)
    .filter((path) => !wanted.has(path))
    .sort();
}
