import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { UserError } from '../errors.js';
import { helmApiFiles } from '../generators/helm-operator/api.js';
import { readLocalChart, type LocalChart } from '../generators/helm-operator/chart.js';
import { isHelmOperatorProject, watchesFile } from '../generators/helm-operator/plugin.js';
import { templateKinds } from '../generators/helm-operator/template-kinds.js';
import { valuesSchemaToCrd } from '../generators/helm-operator/values-schema.js';
import { kindNames } from '../generators/scaffold/names.js';
import { pluralOf } from '../names/plural.js';
import { validateGroup, validateKind, validatePlural, validateVersion } from '../names/validate.js';
import { fullGroup, projectFileName, sameGvk, type ProjectConfig, type Resource } from '../project/model.js';
import { serializeProject } from '../project/serialize.js';
import { applyChanges, formatPlan, planChanges } from '../writer/index.js';

/** The flags of `create api` a chart-backed kind takes. */
export interface CreateHelmApiOptions {
  group: string;
  version: string;
  kind: string;
  plural?: string;
  namespaced?: boolean;
  helmChart?: string;
  helmChartRepo?: string;
  helmChartVersion?: string;
  force?: boolean;
  dryRun?: boolean;
  /** Flags of TypeScript kinds, refused here rather than ignored. */
  resource?: boolean;
  controller?: boolean;
  externalApiPath?: string;
  externalApiDomain?: string;
  externalApiModule?: string;
}

const typescriptOnly = [
  ['resource', '--resource'],
  ['controller', '--controller'],
  ['externalApiPath', '--external-api-path'],
  ['externalApiDomain', '--external-api-domain'],
  ['externalApiModule', '--external-api-module'],
] as const;

/**
 * `create api --helm-chart` in a project made with `init --plugins helm-operator`: copies
 * the chart into helm-charts/, adds its watch, and writes the kind's CRD, sample and RBAC.
 * The chart is rendered once with its default values (helm template) to learn which kinds
 * the manager's role must cover; nothing is written when any step fails.
 */
export async function runCreateHelmApi(dir: string, project: ProjectConfig, options: CreateHelmApiOptions): Promise<void> {
  if (!isHelmOperatorProject(project)) {
    throw new UserError('--helm-chart: this project reconciles with TypeScript controllers', { file: projectFileName }, 'a chart-backed project is made with opgen init --plugins helm-operator');
  }
  const flag = typescriptOnly.find(([key]) => options[key] !== undefined);
  if (flag) {
    throw new UserError(`${flag[1]}: a chart-backed kind has no TypeScript types or controller: its chart reconciles it`, undefined, 'leave the flag out');
  }
  if (!options.helmChart) {
    throw new UserError('a kind of a chart-backed project needs --helm-chart <dir|repo/chart>', undefined, 'e.g. opgen create api --group web --version v1alpha1 --kind Site --helm-chart ./charts/site');
  }
  validateGroup(options.group, project.domain);
  validateVersion(options.version);
  validateKind(options.kind);
  const plural = options.plural ?? pluralOf(options.kind);
  validatePlural(plural);
  if (options.namespaced === false) {
    throw new UserError('--namespaced=false: a chart-backed kind is namespaced: its release and the chart\'s objects live in the CR\'s namespace');
  }
  const resource: Resource = { group: options.group, version: options.version, kind: options.kind, domain: project.domain, plural, api: { crdVersion: 'v1', namespaced: true }, controller: false, extra: {} };
  const existing = project.resources.find((r) => sameGvk(r, resource));
  if (existing && !options.force) {
    throw new UserError(`${options.kind} ${fullGroup(resource)}/${options.version} exists already; nothing was written`, { file: projectFileName }, 'pass --force to scaffold it again from the chart');
  }
  const sibling = project.resources.find((r) => r.group === resource.group && r.kind === resource.kind && r.version !== resource.version);
  if (sibling) {
    throw new UserError(`${options.kind} already has version ${sibling.version}: a chart-backed kind has one version, its chart's`, { file: projectFileName });
  }

  const helm = await helmBinary();
  const { chart, shownAs, cleanup } = await obtainChart(helm, options);
  try {
    // A schema that cannot become the CRD's is the more precise message: before helm's.
    if (chart.schema !== undefined) valuesSchemaToCrd(chart.schema, `${shownAs}/values.schema.json`);
    const renderedKinds = [...templateKinds(chart), ...(await renderedKindsOf(helm, chart, shownAs))];
    const names = kindNames(project, resource);
    const read = (path: string) => readFile(join(dir, path), 'utf8');
    const files = helmApiFiles({
      projectName: project.projectName,
      namespaced: project.namespaced,
      resource,
      chart,
      chartShownAs: shownAs,
      renderedKinds,
      roleStems: { file: names.roleFileStem, name: names.roleNameStem },
      current: {
        watches: existsSync(join(dir, watchesFile)) ? await read(watchesFile) : '',
        crdKustomization: await read('config/crd/kustomization.yaml'),
        samplesKustomization: await read('config/samples/kustomization.yaml'),
        role: await read('config/rbac/role.yaml'),
        rbacKustomization: await read('config/rbac/kustomization.yaml'),
      },
    });
    const updated: ProjectConfig = { ...project, resources: existing ? project.resources.map((r) => (r === existing ? resource : r)) : [...project.resources, resource] };
    files.push({ path: projectFileName, content: serializeProject(updated), ownership: 'generated' });
    const changes = await planChanges(dir, files, { force: options.force ?? false });
    const conflicts = changes.filter((c) => c.action === 'CONFLICT').map((c) => c.path);
    if (conflicts.length > 0) {
      throw new UserError(`${conflicts.join(', ')} already exist${conflicts.length === 1 ? 's' : ''} with other content; nothing was written`, undefined, 'another chart of the same name? pass --force to overwrite');
    }
    if (!options.dryRun) await applyChanges(dir, changes);
    process.stdout.write(`${formatPlan(changes, { dryRun: options.dryRun ?? false })}\n`);
  } finally {
    await cleanup();
  }
}

/** A local folder as it is; `repo/chart` (or a chart of --helm-chart-repo) pulled with helm into a temporary folder. */
async function obtainChart(helm: string, options: CreateHelmApiOptions): Promise<{ chart: LocalChart; shownAs: string; cleanup: () => Promise<void> }> {
  const given = options.helmChart!;
  if (existsSync(given) || (!options.helmChartRepo && !/^[\w.-]+\/[\w.-]+$/.test(given))) {
    return { chart: await readLocalChart(given, given.replace(/\/+$/, '')), shownAs: given.replace(/\/+$/, ''), cleanup: async () => {} };
  }
  const temp = await mkdtemp(join(tmpdir(), 'opgen-chart-'));
  const cleanup = () => rm(temp, { recursive: true, force: true });
  try {
    const args = ['pull', given, '--untar', '--untardir', temp];
    if (options.helmChartRepo) args.push('--repo', options.helmChartRepo);
    if (options.helmChartVersion) args.push('--version', options.helmChartVersion);
    await runHelm(helm, args, `helm pull ${given}`);
    const [folder] = await readdir(temp);
    if (!folder) throw new UserError(`helm pull ${given} fetched nothing`);
    return { chart: await readLocalChart(join(temp, folder), given), shownAs: given, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** The kinds the chart renders with its own default values. */
async function renderedKindsOf(helm: string, chart: LocalChart, shownAs: string): Promise<{ apiVersion: string; kind: string }[]> {
  const temp = await mkdtemp(join(tmpdir(), 'opgen-chart-'));
  try {
    const { mkdir, writeFile } = await import('node:fs/promises');
    for (const file of chart.files) {
      await mkdir(join(temp, file.path, '..'), { recursive: true });
      await writeFile(join(temp, file.path), file.content);
    }
    const manifest = await runHelm(helm, ['template', 'opgen', temp, '--skip-tests'], `the chart ${shownAs} does not render with its default values`);
    const seen = new Map<string, { apiVersion: string; kind: string }>();
    for (const doc of parseAllDocuments(manifest) as import('yaml').Document[]) {
      const object = doc.toJS() as { apiVersion?: string; kind?: string } | null;
      if (object?.apiVersion && object.kind) seen.set(`${object.apiVersion}/${object.kind}`, { apiVersion: object.apiVersion, kind: object.kind });
    }
    return [...seen.values()];
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/**
 * `$HELM`, else helm on the PATH, else a helm downloaded once (sha256 verified,
 * `OPGEN_HELM_RELEASE_URL` for a mirror) into opgen's cache.
 */
async function helmBinary(): Promise<string> {
  if (process.env.HELM) return process.env.HELM;
  const { DownloadError, ensureHelm, onPath } = await import('@opgen/runtime/downloads');
  if (onPath('helm')) return 'helm';
  try {
    return await ensureHelm();
  } catch (error) {
    if (!(error instanceof DownloadError)) throw error;
    throw new UserError(`no helm on the PATH, and ${error.message}`, undefined, 'create api --helm-chart renders the chart with helm: put helm on the PATH, set HELM, or point OPGEN_HELM_RELEASE_URL at a mirror of https://get.helm.sh');
  }
}

async function runHelm(helm: string, args: string[], what: string): Promise<string> {
  const { execa } = await import('execa');
  const result = await execa(helm, args, { reject: false });
  if ((result as { code?: string }).code === 'ENOENT' || (result.failed && result.exitCode === undefined)) {
    throw new UserError(`helm not found (${helm})`, undefined, 'create api --helm-chart renders the chart with helm: put helm on the PATH or set HELM');
  }
  if (result.exitCode !== 0) {
    throw new UserError(`${what}: ${helmError(String(result.stderr))}`);
  }
  return String(result.stdout);
}

/** helm's error on one line: from its `Error:` line on (a schema failure lists each problem below it). */
function helmError(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const start = lines.findIndex((l) => l.startsWith('Error:'));
  const kept = start >= 0 ? lines.slice(start) : lines.slice(-1);
  return kept.filter((l) => !l.startsWith('Use --debug')).join(' ').replace(/^Error:\s*/, '');
}
