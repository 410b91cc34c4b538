import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import type { CustomResourceDefinition } from '../crd/types.js';
import { UserError } from '../errors.js';
import { parsedOnce } from './parsed-cache.js';

/** Where the released CRDs live in a project, as `opgen manifests` writes them. */
const crdDir = 'config/crd/bases';

/** The released API: its CRDs by name, each with the file it came from. */
export interface ReleasedApi {
  /** What was compared with, for messages: `v0.3.0`, `a1b2c3d`, a directory. */
  label: string;
  crds: Map<string, { crd: CustomResourceDefinition; file: string }>;
  /** Names of the files that are byte for byte what opgen generates now: their CRDs did not change, and were not parsed. */
  identical: Set<string>;
}

/** The CRD files generated now, by file name (`shop.example.com_widgets.yaml`) → text. */
export type GeneratedCrdFiles = ReadonlyMap<string, string>;

/**
 * The CRDs to compare with: `base` is a directory of CRD files, or a git ref whose
 * `config/crd/bases` is read from the repository holding `root`; without `base`, the last tag
 * reachable from HEAD. Without a release (no tag yet, or no git) it says why there is none.
 *
 * @throws UserError when `base` is neither a directory nor a ref, or a file is not YAML.
 */
export function loadReleasedApi(root: string, base: string | undefined, generated: GeneratedCrdFiles = new Map()): ReleasedApi | { none: string } {
  if (base !== undefined && isDirectory(resolve(base))) return fromDirectory(resolve(base), generated);
  if (base === undefined && !git(root, ['rev-parse', '--git-dir']).ok) return { none: 'not a git repository' };
  const ref = base ?? lastTag(root);
  if (ref === undefined) return { none: 'no git tag yet' };
  if (!git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).ok) {
    throw new UserError(`--base ${ref} is neither a directory nor a git ref of the repository at ${root}`, undefined, 'give a tag, a commit or a directory of CRD files');
  }
  return fromGit(root, ref, generated);
}

function fromDirectory(dir: string, generated: GeneratedCrdFiles): ReleasedApi {
  const released: ReleasedApi = { label: relative(process.cwd(), dir) || dir, crds: new Map(), identical: new Set() };
  for (const name of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort()) {
    const file = join(dir, name);
    addFile(released, generated, readFileSync(file, 'utf8'), relative(process.cwd(), file) || file);
  }
  return released;
}

function fromGit(root: string, ref: string, generated: GeneratedCrdFiles): ReleasedApi {
  const prefix = git(root, ['rev-parse', '--show-prefix']).out.trim();
  const listed = git(root, ['ls-tree', '-r', '--full-name', '--name-only', ref, '--', crdDir]);
  const paths = listed.out.split('\n').filter((p) => /\.ya?ml$/.test(p));
  const released: ReleasedApi = { label: ref, crds: new Map(), identical: new Set() };
  if (paths.length === 0) return released;
  // One git process reads every file: a release with a hundred CRDs costs one spawn, not a hundred.
  const batch = spawnSync('git', ['cat-file', '--batch'], { cwd: root, input: paths.map((p) => `${ref}:${p}\n`).join(''), maxBuffer: 1 << 30 });
  if (batch.status !== 0) throw new UserError(`cannot read ${crdDir} at ${ref}: ${batch.stderr.toString().trim()}`);
  const out = batch.stdout;
  let at = 0;
  for (const path of paths) {
    const headerEnd = out.indexOf(10, at);
    const size = Number(out.subarray(at, headerEnd).toString().split(' ')[2]);
    const text = out.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8');
    at = headerEnd + 1 + size + 1;
    addFile(released, generated, text, `${ref}:${path.slice(prefix.length)}`);
  }
  return released;
}

/** Adds the CRDs of one released file; one that opgen would write again unchanged is only noted (parsing is most of the cost). */
function addFile(released: ReleasedApi, generated: GeneratedCrdFiles, text: string, file: string): void {
  const name = basename(file);
  if (generated.get(name) === text) {
    released.identical.add(name);
    return;
  }
  for (const value of parsedOnce(text, (yaml) => parseDocuments(yaml, file))) {
    const crd = value as Partial<CustomResourceDefinition> | null;
    if (crd?.kind !== 'CustomResourceDefinition' || !crd.metadata?.name) continue;
    if (!Array.isArray(crd.spec?.versions)) throw new UserError(`CRD ${crd.metadata.name} has no spec.versions: not apiextensions.k8s.io/v1`, { file }, 'compare with CRDs opgen or controller-gen wrote');
    released.crds.set(crd.metadata.name, { crd: crd as CustomResourceDefinition, file });
  }
}

/** The documents of a YAML file; the single-document parse is three times faster, and opgen writes one CRD per file. */
function parseDocuments(text: string, file: string): unknown[] {
  try {
    return [parse(text)];
  } catch {
    const docs = parseAllDocuments(text);
    for (const doc of docs) if (doc.errors.length) throw new UserError(`${doc.errors[0]!.message.split('\n')[0]}`, { file }, 'the released CRDs must be YAML');
    return docs.map((doc) => doc.toJS() as unknown);
  }
}

function lastTag(root: string): string | undefined {
  const found = git(root, ['describe', '--tags', '--abbrev=0', 'HEAD']);
  return found.ok ? found.out.trim() : undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function git(cwd: string, args: string[]): { ok: boolean; out: string } {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { ok: !result.error && result.status === 0, out: result.stdout ?? '' };
}
