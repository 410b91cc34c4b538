import { readFileSync, readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { droppedSamples } from './dropped-samples.js';
import type { ProjectConfig } from './model.js';

/** Whether a path under src/ (`/`-separated, relative to src/) is a TypeScript file opgen reads. */
export function isSourcePath(relativeToSrc: string): boolean {
  return /\.m?ts$/.test(relativeToSrc) && !/\.(d|test|spec)\.m?ts$/.test(relativeToSrc) && !relativeToSrc.split('/').includes('node_modules');
}

/**
 * Every TypeScript file under src/ (project-relative path `src/…` → text), in path order.
 * Read synchronously: a hundred small files a run, read one after the other, take a fraction
 * of the time their trips through libuv's thread pool would, on a busy machine most of all.
 */
export async function readSources(root: string): Promise<Map<string, string>> {
  let entries: string[];
  try {
    entries = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  const wanted = entries.map((e) => e.split('\\').join('/')).filter(isSourcePath).sort();
  const texts = wanted.map((e) => readFileSync(join(root, 'src', e), 'utf8'));
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
