import { join } from 'node:path';
import type { SampleInput } from '../generators/samples.js';
import { samplePath } from '../project/sample-path.js';
import { readIfExists } from '../read-if-exists.js';

/** The text of each kind version's sample that is on disk, by project-relative path. */
export async function readSamples(root: string, input: readonly SampleInput[], domain: string): Promise<Map<string, string>> {
  const paths = [...new Set(input.map((resource) => samplePath(resource, domain)))];
  const texts = await Promise.all(paths.map((path) => readIfExists(join(root, path))));
  return new Map(paths.flatMap((path, i) => (texts[i] === undefined ? [] : [[path, texts[i]] as const])));
}
