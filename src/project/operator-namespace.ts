import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LineCounter, isMap, parseDocument } from 'yaml';
import { UserError } from '../errors.js';
import type { ProjectConfig } from './model.js';

const kustomizationFile = 'config/default/kustomization.yaml';

/**
 * The namespace the operator is deployed to: config/default's `namespace`, or
 * `<project>-system` as `opgen init` writes it when the file or the key is missing. The
 * webhook safety selectors keep webhooks out of it.
 *
 * @throws UserError at the file's line when the kustomization is not valid YAML.
 */
export async function operatorNamespace(root: string, project: Pick<ProjectConfig, 'projectName'>): Promise<string> {
  const fallback = `${project.projectName}-system`;
  let text: string;
  try {
    text = await readFile(join(root, kustomizationFile), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new UserError(`corrupt kustomization: ${error.message.split('\n')[0]}`, { file: kustomizationFile, line, column: col });
  }
  const namespace = isMap(doc.contents) ? doc.get('namespace') : undefined;
  return typeof namespace === 'string' && namespace !== '' ? namespace : fallback;
}
