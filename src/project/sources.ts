import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { droppedSamples } from './dropped-samples.js';
import type { ProjectConfig } from './model.js';

/** Whether a path under src/ (`/`-separated, relative to src/) is a TypeScript file opgen reads. */
export function isSourcePath(relativeToSrc: string): boolean {
  return /\.m?ts$/.test(relativeToSrc) && !/\.(d|test|spec)\.m?ts$/.test(relativeToSrc) && !relativeToSrc.split('/').includes('node_modules');
}

/** Every TypeScript file under src/ (project-relative path `src/…` → text), in path order. */
export async function readSources(root: string): Promise<Map<string, string>> {
  let entries: string[];
  try {
    entries = await readdir(join(root, 'src'), { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const wanted = entries.map((e) => e.split('\\').join('/')).filter(isSourcePath).sort();
  const texts = await Promise.all(wanted.map((e) => readFile(join(root, 'src', e), 'utf8')));
  return new Map(wanted.map((e, i) => [`src/${e}`, texts[i]!]));
}

/** The files already in config/samples/ (project-relative paths); samples are written once. */
export async function existingSamples(root: string): Promise<Set<string>> {
  try {
    const names = await readdir(join(root, 'config/samples'));
    return new Set(names.map((n) => `config/samples/${n}`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw error;
  }
}

/**
 * The samples `opgen manifests` must not write: those already in config/samples/ (samples are
 * written once) and those the user dropped on purpose ({@link droppedSamples}).
 */
export async function samplesNotToWrite(root: string, project: ProjectConfig): Promise<Set<string>> {
  const onDisk = await existingSamples(root);
  return new Set([...onDisk, ...(await droppedSamples(root, project, onDisk))]);
}
