import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMap } from 'yaml';
import { parseKustomization } from './kustomization.js';
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
  const doc = parseKustomization(text, kustomizationFile);
  const namespace = isMap(doc.contents) ? doc.get('namespace') : undefined;
  return typeof namespace === 'string' && namespace !== '' ? namespace : fallback;
}
