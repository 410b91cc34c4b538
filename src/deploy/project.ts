import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';

/** The project the deploy commands work on: its real root and its package name. */
export interface DeployProject {
  root: string;
  /** The name server-side apply records as the owner of the fields it sets: the package's. */
  fieldManager: string;
}

/** The project at `dir`, which must hold the package.json of an opgen project. */
export function deployProject(dir: string): DeployProject {
  const root = resolve(dir);
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest)) throw new UserError(`no package.json in ${root}: run this in the project's root, or pass --dir <project>`);
  let name: unknown;
  try {
    ({ name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown });
  } catch (error) {
    throw new UserError(`package.json is not JSON: ${(error as Error).message}`, { file: manifest });
  }
  if (typeof name !== 'string' || !name) throw new UserError('package.json has no name, which deploying records as the field manager', { file: manifest });
  return { root: realpathSync(root), fieldManager: name };
}
