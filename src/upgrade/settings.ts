import { join } from 'node:path';
import { UserError } from '../errors.js';
import { boilerplatePath } from '../generators/scaffold/init.js';
import { readIfExists } from '../read-if-exists.js';
import type { ProjectSettings } from './replay.js';

/** The dev tools `init` writes into package.json, whose versions the replay takes from the project. */
const devToolNames = ['@eslint/js', '@types/node', 'eslint', 'typescript', 'typescript-eslint', 'vitest'];

interface Manifest {
  license?: string;
  author?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** {@link ProjectSettings} of the project at `root`, from its package.json and hack/boilerplate.txt. */
export async function readProjectSettings(root: string): Promise<ProjectSettings> {
  const text = await readIfExists(join(root, 'package.json'));
  if (text === undefined) throw new UserError('package.json not found: opgen reads the project\'s packages from it', { file: 'package.json' });
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch (error) {
    throw new UserError(`package.json is not valid JSON: ${(error as Error).message}`, { file: 'package.json' });
  }
  const devDependencies = manifest.devDependencies ?? {};
  return {
    boilerplate: (await readIfExists(join(root, boilerplatePath))) ?? '',
    license: manifest.license === 'Apache-2.0' ? 'apache2' : 'none',
    owner: typeof manifest.author === 'string' ? manifest.author : undefined,
    runtimeSpec: manifest.dependencies?.['@opgen/runtime'] ?? '',
    cliSpec: devDependencies.opgen ?? '',
    devTools: Object.fromEntries(devToolNames.filter((name) => devDependencies[name] !== undefined).map((name) => [name, devDependencies[name]!])),
  };
}
