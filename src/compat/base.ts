import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { CustomResourceDefinition } from '../crd/types.js';
import { UserError } from '../errors.js';

/** Where the released CRDs live in a project, as `opgen manifests` writes them. */
const crdDir = 'config/crd/bases';

/** The released API: its CRDs by name, each with the file it came from. */
export interface ReleasedApi {
  /** What was compared with, for messages: `v0.3.0`, `a1b2c3d`, a directory. */
  label: string;
  crds: Map<string, { crd: CustomResourceDefinition; file: string }>;
}

/**
 * The CRDs to compare with: `base` is a directory of CRD files, or a git ref whose
 * `config/crd/bases` is read from the repository holding `root`; without `base`, the last tag
 * reachable from HEAD. Without a release (no tag yet, or no git) it says why there is none.
 *
 * @throws UserError when `base` is neither a directory nor a ref, or a file is not YAML.
 */
export function loadReleasedApi(root: string, base: string | undefined): ReleasedApi | { none: string } {
  if (base !== undefined && isDirectory(resolve(base))) return fromDirectory(resolve(base));
  if (base === undefined && !git(root, ['rev-parse', '--git-dir']).ok) return { none: 'not a git repository' };
  const ref = base ?? lastTag(root);
  if (ref === undefined) return { none: 'no git tag yet' };
  if (!git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).ok) {
    throw new UserError(`--base ${ref} is neither a directory nor a git ref of the repository at ${root}`, undefined, 'give a tag, a commit or a directory of CRD files');
  }
  return fromGit(root, ref);
}

function fromDirectory(dir: string): ReleasedApi {
  const crds: ReleasedApi['crds'] = new Map();
  for (const name of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort()) {
    const file = join(dir, name);
    addCrds(crds, readFileSync(file, 'utf8'), relative(process.cwd(), file) || file);
  }
  return { label: relative(process.cwd(), dir) || dir, crds };
}

function fromGit(root: string, ref: string): ReleasedApi {
  const prefix = git(root, ['rev-parse', '--show-prefix']).out.trim();
  const listed = git(root, ['ls-tree', '-r', '--full-name', '--name-only', ref, '--', crdDir]);
  const paths = listed.out.split('\n').filter((p) => /\.ya?ml$/.test(p));
  const crds: ReleasedApi['crds'] = new Map();
  if (paths.length === 0) return { label: ref, crds };
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
    addCrds(crds, text, `${ref}:${path.slice(prefix.length)}`);
  }
  return { label: ref, crds };
}

function addCrds(crds: ReleasedApi['crds'], text: string, file: string): void {
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) throw new UserError(`${doc.errors[0]!.message.split('\n')[0]}`, { file }, 'the released CRDs must be YAML');
    const value = doc.toJS() as Partial<CustomResourceDefinition> | null;
    if (value?.kind !== 'CustomResourceDefinition' || !value.metadata?.name) continue;
    crds.set(value.metadata.name, { crd: value as CustomResourceDefinition, file });
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
