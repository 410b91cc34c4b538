/**
 * The real-world corpus (test/fixtures/corpus/<project>/): CRDs of widely used projects at
 * pinned versions, each folder with its LICENSE and a SOURCE naming repository, tag, commit
 * and the path of every file; `examples/` holds published example objects.
 *
 * @module
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const CORPUS = new URL('../fixtures/corpus/', import.meta.url).pathname;

export interface CorpusFile {
  project: string;
  file: string;
  doc: Record<string, unknown>;
}

function documents(dir: string, project: string): CorpusFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8'))
        .map((d) => d.toJS() as Record<string, unknown> | null)
        .filter((doc): doc is Record<string, unknown> => doc !== null)
        .map((doc) => ({ project, file, doc })),
    );
}

/** The projects, each a folder of the corpus. */
export const projects: string[] = readdirSync(CORPUS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

/** Every CRD of the corpus. */
export function corpusCrds(): CorpusFile[] {
  return projects.flatMap((project) => documents(join(CORPUS, project), project)).filter(({ doc }) => doc.kind === 'CustomResourceDefinition');
}

/** The published example objects, in the order their files list them (a Gateway before its routes). */
export function corpusExamples(): CorpusFile[] {
  return projects.flatMap((project) => documents(join(CORPUS, project, 'examples'), project));
}
