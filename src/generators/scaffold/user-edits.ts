import type { GeneratedFile } from '../../writer/index.js';

/**
 * How `create api --force` decides what is the user's. A scaffolded file whose content on
 * disk is exactly what opgen generated for it before (`previous`, regenerated from the
 * PROJECT's record) holds nothing of the user's: it is rewritten. A file that differs from
 * that, or that opgen never generated, holds the user's work: it is kept (the writer
 * reports SKIP), and its path is returned in `kept`. Without `force` nothing changes here
 * and the writer refuses to overwrite such files.
 */
export function protectUserEdits(
  files: readonly GeneratedFile[],
  onDisk: ReadonlyMap<string, string | undefined>,
  previous: ReadonlyMap<string, string>,
  force: boolean,
): { files: GeneratedFile[]; kept: string[] } {
  const kept: string[] = [];
  const out = files.map((file): GeneratedFile => {
    const current = onDisk.get(file.path);
    if (!force || file.ownership !== 'user' || current === undefined || current === file.content) return file;
    if (previous.get(file.path) === current) return { ...file, ownership: 'generated' };
    kept.push(file.path);
    return { ...file, ownership: 'once' };
  });
  return { files: out, kept };
}
