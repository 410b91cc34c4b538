// The imported APIs of the "Working with other projects' APIs" chapter. Nothing of them is
// checked in: each test run imports cert-manager's Certificate and Gateway API's HTTPRoute
// CRDs (the pinned copies of test/fixtures/corpus) with `opgen import crd` into a scratch
// project, as the chapter tells a reader to, and copies the project's src/external/ to
// book/snippets/external/ (git-ignored), where the chapter's snippet imports it from.
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cleanUp, opgen, opgenOk, projectDir } from '../scaffold/run.js';

const corpus = (path: string) => new URL(`../fixtures/corpus/${path}`, import.meta.url).pathname;
const snippetsExternal = new URL('../../book/snippets/external/', import.meta.url).pathname;

/** The two CRD files, as the chapter has the reader download them into crds/. */
const bookCrds = {
  certificates: { corpus: corpus('cert-manager/cert-manager.io_certificates.yaml'), file: 'crds/cert-manager.io_certificates.yaml' },
  httproutes: { corpus: corpus('gateway-api/gateway.networking.k8s.io_httproutes.yaml'), file: 'crds/gateway.networking.k8s.io_httproutes.yaml' },
};

export interface BookImport {
  /** What each `opgen import crd` printed on stdout, in order. */
  printed: string[];
  /** The project's PROJECT file after both imports. */
  project: string;
  /** The imported CRDs (config/crd/external/ of the project), for the test clusters. */
  crds: string;
  /** Deletes the scratch project (book/snippets/external/ stays, for editors and tsc). */
  remove(): Promise<void>;
}

/**
 * Imports the chapter's CRDs into a new project and refreshes book/snippets/external/ from
 * it. Each file there is replaced by a rename, so a test file type-checking the snippets
 * while another refreshes them reads whole files.
 */
export async function importBookApis(): Promise<BookImport> {
  const dir = await projectDir('web-operator');
  await opgenOk(dir, 'init', '--domain', 'example.com', '--skip-install');
  const printed: string[] = [];
  for (const { corpus: from, file } of Object.values(bookCrds)) {
    await copyInto(dir, from, file);
    printed.push(await opgenOk(dir, 'import', 'crd', file));
  }
  await refreshSnippets(join(dir, 'src/external'));
  const project = await readFile(join(dir, 'PROJECT'), 'utf8');
  return { printed, project, crds: join(dir, 'config/crd/external'), remove: () => cleanUp(dir) };
}

/**
 * `opgen import crd <file>` in a new project, of the corpus CRD `path` copied to `file`
 * there: its exit code and stderr (the round-trip warnings, located in `file`).
 */
export async function importWarnings(file: string, path: string): Promise<{ code: number; stderr: string }> {
  const dir = await projectDir('warned');
  try {
    await opgenOk(dir, 'init', '--domain', 'example.com', '--skip-install');
    await copyInto(dir, corpus(path), file);
    const { code, stderr } = await opgen(dir, 'import', 'crd', file);
    return { code, stderr };
  } finally {
    await cleanUp(dir);
  }
}

/** Copies `from` to `file` under the project `dir`, as the chapter's curl does. */
async function copyInto(dir: string, from: string, file: string): Promise<void> {
  await mkdir(join(dir, dirname(file)), { recursive: true });
  await cp(from, join(dir, file));
}

async function refreshSnippets(from: string): Promise<void> {
  const files = (await readdir(from, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(from.length + 1));
  const stale = (await readdir(snippetsExternal, { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(snippetsExternal.length));
  for (const file of files) {
    const target = join(snippetsExternal, file);
    await mkdir(dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.tmp`;
    await writeFile(partial, await readFile(join(from, file)));
    await rename(partial, target);
  }
  // So that the snippet cannot import a file this opgen no longer writes.
  for (const file of stale.filter((f) => !files.includes(f) && !f.endsWith('.tmp'))) await rm(join(snippetsExternal, file), { force: true });
}
