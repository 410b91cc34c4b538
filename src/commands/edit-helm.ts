import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { isMap, parseAllDocuments } from 'yaml';
import { UserError } from '../errors.js';
import { chartDir, helmChartFiles, type Manifest } from '../generators/helm/index.js';
import { parseKustomization } from '../project/kustomization.js';
import { kubectl, kubectlError } from '../kubectl.js';
import type { ProjectConfig } from '../project/model.js';
import type { GeneratedFile } from '../writer/index.js';
import { generatedHeader } from '../yaml.js';

/** The chart's files under dist/chart/, and its templates config/ no longer makes. */
export interface HelmChartUpdate {
  files: GeneratedFile[];
  /** Templates opgen wrote for objects config/ no longer builds (a kind or a webhook gone). */
  deletes: string[];
  /** The namespace `helm install` is told to use. */
  namespace: string;
}

/**
 * The chart's files, from what kustomize builds out of config/: the project's, or, with
 * `staged`, config/ as it will be once those changes are written (built in a copy, so that
 * nothing is written until the whole plan is known).
 */
export async function helmFiles(root: string, project: ProjectConfig, force: boolean, staged?: ConfigChanges): Promise<HelmChartUpdate> {
  const copy = staged ? await stageConfig(root, staged) : undefined;
  try {
    const configRoot = copy ?? root;
    const manifests = kustomize(configRoot, 'config/default');
    const optional: Manifest[] = [];
    for (const extra of ['config/prometheus', 'config/network-policy']) {
      if (existsSync(join(configRoot, extra, 'kustomization.yaml'))) optional.push(...kustomize(configRoot, extra));
    }
    const kustomization = await defaultKustomization(configRoot);
    const namespace = kustomization.namespace ?? `${project.projectName}-system`;
    const files = helmChartFiles(
      {
        projectName: project.projectName,
        manifests,
        optional,
        namespace,
        namePrefix: kustomization.namePrefix ?? '',
        leaderElectionId: await leaderElectionId(root),
        appVersion: await packageVersion(root),
      },
      { force },
    );
    return { files, deletes: await staleTemplates(root, files), namespace };
  } finally {
    if (copy) await rm(join(copy, '..'), { recursive: true, force: true });
  }
}

/** Changes to config/ not written yet: files rewritten whole, files deleted. */
export interface ConfigChanges {
  updates: readonly GeneratedFile[];
  deletes: readonly string[];
}

/** A copy of the project's config/ with `changes` made, in a new temporary folder; returns the copy's root. */
async function stageConfig(root: string, changes: ConfigChanges): Promise<string> {
  const copy = join(await mkdtemp(join(tmpdir(), 'opgen-edit-')), 'project');
  await cp(join(root, 'config'), join(copy, 'config'), { recursive: true });
  for (const file of changes.updates.filter((f) => f.path.startsWith('config/'))) {
    await mkdir(dirname(join(copy, file.path)), { recursive: true });
    await writeFile(join(copy, file.path), file.content);
  }
  for (const path of changes.deletes.filter((p) => p.startsWith('config/'))) await rm(join(copy, path), { force: true });
  return copy;
}

/**
 * The templates under dist/chart/templates/ that opgen generated (they start with its
 * header) and that the chart no longer has: their objects left config/. A template the
 * user wrote has no such header and stays.
 */
async function staleTemplates(root: string, files: readonly GeneratedFile[]): Promise<string[]> {
  const templates = `${chartDir}/templates`;
  const entries = await readdir(join(root, templates), { recursive: true, withFileTypes: true }).catch(() => []);
  const wanted = new Set(files.map((f) => f.path));
  const stale: string[] = [];
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = relative(root, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (wanted.has(path)) continue;
    const text = await readFile(join(root, path), 'utf8');
    if (text.startsWith(`{{- /* ${generatedHeader}`)) stale.push(path);
  }
  return stale.sort();
}

/** `kubectl kustomize <dir>` (kubectl's built-in kustomize), as parsed objects. */
function kustomize(root: string, dir: string): Manifest[] {
  const result = kubectl(['kustomize', dir], { cwd: root, purpose: `opgen edit --plugins helm builds ${dir} with \`kubectl kustomize\`` });
  if (!result.ok) {
    throw new UserError(`kubectl kustomize ${dir} failed: ${kubectlError(result.stderr)}`, { file: `${dir}/kustomization.yaml` });
  }
  const objects: Manifest[] = [];
  for (const doc of parseAllDocuments(result.stdout)) {
    if (doc.errors[0]) throw new UserError(`kubectl kustomize ${dir} printed YAML that does not parse: ${doc.errors[0].message.split('\n')[0]}`);
    const object = doc.toJS() as unknown;
    if (object === null) continue;
    const candidate = object as Partial<Manifest>;
    if (typeof candidate.kind !== 'string' || typeof candidate.metadata?.name !== 'string') {
      throw new UserError(`kubectl kustomize ${dir} printed an object without kind or metadata.name`, { file: `${dir}/kustomization.yaml` });
    }
    objects.push(object as Manifest);
  }
  return objects;
}

/** config/default's namespace and namePrefix, which the chart replaces with the release's. */
async function defaultKustomization(root: string): Promise<{ namespace?: string; namePrefix?: string }> {
  const file = 'config/default/kustomization.yaml';
  const text = await readFile(join(root, file), 'utf8');
  const doc = parseKustomization(text, file);
  if (!isMap(doc.contents)) return {};
  const read = (key: string) => {
    const value = doc.get(key);
    return typeof value === 'string' ? value : undefined;
  };
  const result: { namespace?: string; namePrefix?: string } = {};
  const namespace = read('namespace');
  const namePrefix = read('namePrefix');
  if (namespace !== undefined) result.namespace = namespace;
  if (namePrefix !== undefined) result.namePrefix = namePrefix;
  return result;
}

/**
 * The Lease name src/main.ts gives createManager, when it is a literal there (alone, or as
 * the scaffold writes it: the fallback of `--leader-election-id`).
 */
async function leaderElectionId(root: string): Promise<string | undefined> {
  const main = await readFile(join(root, 'src/main.ts'), 'utf8').catch(() => '');
  const id = /leaderElectionId:\s*(?:options\.leaderElectionId\s*\?\?\s*)?(['"`])([^'"`\n]+)\1/.exec(main)?.[2];
  return id && /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(id) ? id : undefined;
}

/** The project's version (package.json), the chart's appVersion. */
async function packageVersion(root: string): Promise<string> {
  const text = await readFile(join(root, 'package.json'), 'utf8').catch(() => '{}');
  try {
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' && version ? version : '0.1.0';
  } catch {
    throw new UserError('package.json is not valid JSON', { file: 'package.json' });
  }
}
