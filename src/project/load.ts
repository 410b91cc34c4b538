import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { UserError } from '../errors.js';
import { projectFileName, type ProjectConfig } from './model.js';
import { parseProject } from './parse.js';

/**
 * Reads the PROJECT file of the project rooted at `root`; a missing file means the command
 * runs outside a project.
 */
export async function loadProject(root: string, command: string): Promise<ProjectConfig> {
  const path = join(root, projectFileName);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new UserError(
      `no ${projectFileName} file in ${root}: not an opgen project`,
      undefined,
      `run ${command} in the root folder of a project made by opgen init`,
    );
  }
  return parseProject(text, relative(process.cwd(), path) || projectFileName);
}
