/**
 * The imports PROJECT records, generated again by this opgen: from the CRDs the project
 * keeps under `config/crd/external/`, so `opgen upgrade` and `opgen alpha generate` give the
 * same types offline, without asking the URL or the cluster again.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { projectFileName, type ProjectConfig } from '../project/model.js';
import type { GeneratedFile } from '../writer/index.js';
import { externalCrdRoot, generateImport, type ImportInput } from './generate.js';
import { readCrds } from './read.js';
import { importRecords, originName } from './record.js';

/**
 * The files of every import of the project at `root`.
 *
 * @throws UserError when a recorded CRD is no longer kept under config/crd/external/.
 */
export async function reimport(root: string, project: ProjectConfig): Promise<GeneratedFile[]> {
  const inputs: ImportInput[] = [];
  for (const record of importRecords(project)) {
    const source = originName(record);
    for (const name of record.crds) {
      const kept = `${externalCrdRoot}/${name}.yaml`;
      let text: string;
      try {
        text = await readFile(join(root, kept), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        throw new UserError(`${projectFileName} records the import of ${name}, but ${kept} is missing`, { file: projectFileName }, `import it again: opgen import crd ${'stdin' in record ? '<file>' : source}`);
      }
      inputs.push(...readCrds(text, kept).map(({ crd }) => ({ crd, source })));
    }
  }
  return generateImport(inputs).files;
}
