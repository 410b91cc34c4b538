import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { isMap, LineCounter, parseAllDocuments, parseDocument } from 'yaml';
import { UserError } from '../errors.js';
import { kubectl, kubectlError } from '../kubectl.js';
import { parseBool } from './bool-flag.js';
import { layoutEdit } from './edit-layout.js';
import { customMetricsConfigPath, grafanaFiles } from '../generators/grafana/index.js';
import { chartDir, helmChartFiles, type Manifest } from '../generators/helm/index.js';
import { loadProject } from '../project/load.js';
import { projectFileName, type ProjectConfig } from '../project/model.js';
import { serializeProject } from '../project/serialize.js';
import { applyChanges, formatPlan, planChanges, type GeneratedFile } from '../writer/index.js';
import { readIfExists } from '../read-if-exists.js';

interface EditOptions {
  plugins?: string;
  multigroup?: boolean;
  namespaced?: boolean;
  force?: boolean;
  dryRun?: boolean;
}

/** The plugins `opgen edit` knows, by the name `--plugins` takes, with the key PROJECT records. */
const plugins = { helm: 'helm.opgen.dev/v1-alpha', grafana: 'grafana.opgen.dev/v1-alpha' } as const;
type PluginName = keyof typeof plugins;

const examples = `
Examples:
  # A Helm chart in dist/chart from config/ (run opgen manifests first)
  $ opgen edit --plugins helm

  # After changing config/: the templates follow, Chart.yaml and values.yaml stay yours
  $ opgen edit --plugins helm

  # Start values.yaml and Chart.yaml over too
  $ opgen edit --plugins helm --force

  # Grafana dashboards in grafana/ for the manager's metrics
  $ opgen edit --plugins grafana

  # After listing your own metrics in grafana/custom-metrics/config.yaml: their dashboard too
  $ opgen edit --plugins grafana

  # New kinds of any group under src/api/<group>/<version>/ (existing kinds stay where they are)
  $ opgen edit --multigroup

  # Watch one namespace: a Role instead of a ClusterRole (then run opgen manifests)
  $ opgen edit --namespaced`;

/** `opgen edit`: adds optional plugins to a project; `helm` writes a Helm chart. */
export function editCommand(): Command {
  return new Command('edit')
    .description('change the project\'s settings, or add optional plugins: --plugins helm writes a Helm chart to dist/chart from config/, --plugins grafana Grafana dashboards to grafana/')
    .option('--plugins <names>', `comma-separated plugins (known: ${Object.keys(plugins).join(', ')})`)
    .option('--multigroup [bool]', 'new kinds go under src/api/<group>/<version>/, for several API groups; --multigroup=false for one group', parseBool)
    .option('--namespaced [bool]', 'the operator watches one namespace (a Role); --namespaced=false for the whole cluster (a ClusterRole)', parseBool)
    .option('--force', `also rewrite ${chartDir}/Chart.yaml and values.yaml, which are otherwise written only once`)
    .option('--dry-run', 'print what would be written; write nothing')
    .addHelpText('after', examples)
    .action(async (options: EditOptions) => {
      await runEdit(process.cwd(), options);
    });
}

/** Runs the plugins named by `options.plugins` in the project at `root`. */
export async function runEdit(root: string, options: EditOptions): Promise<void> {
  const dir = resolve(root);
  if (options.plugins === undefined && options.multigroup === undefined && options.namespaced === undefined) {
    throw new UserError('nothing to edit', undefined, 'pass --plugins, --multigroup or --namespaced; see opgen edit --help');
  }
  const names = options.plugins === undefined ? [] : parsePlugins(options.plugins);
  const loaded = await loadProject(dir, 'opgen edit');
  const layout = await layoutEdit(dir, loaded, { multigroup: options.multigroup, namespaced: options.namespaced });
  const project = layout.project;
  const files: GeneratedFile[] = [...layout.files];
  const helm = names.includes('helm') ? await helmFiles(dir, project, options.force ?? false) : undefined;
  if (helm) files.push(...helm.files);
  if (names.includes('grafana')) files.push(...grafanaFiles(project.projectName, await readIfExists(join(dir, customMetricsConfigPath))));
  files.push({ path: projectFileName, content: serializeProject(withPlugins(project, names)), ownership: 'generated' });

  const changes = await planChanges(dir, files, { force: options.force ?? false });
  if (!options.dryRun) await applyChanges(dir, changes);
  const report = formatPlan(changes, { dryRun: options.dryRun ?? false });
  if (report) process.stdout.write(`${report}\n`);
  for (const path of layout.kept) {
    process.stdout.write(`  kept ${path}: you changed it; make it fit --namespaced=${project.namespaced} yourself\n`);
  }
  if (loaded.multigroup !== project.multigroup && loaded.resources.some((r) => r.path?.startsWith('src/'))) {
    process.stdout.write(`\nThe kinds you have stay where PROJECT's path says; new kinds go to ${project.multigroup ? 'src/api/<group>/<version>/' : 'src/api/<version>/'}.\n`);
  }
  if (loaded.namespaced !== project.namespaced && !options.dryRun) process.stdout.write('\nNext: npm run manifests, which writes the new config/rbac/role.yaml.\n');
  if (names.includes('grafana') && !options.dryRun) {
    process.stdout.write(
      `\nNext: import grafana/*.json in Grafana (Dashboards → New → Import); list your own metrics in ${customMetricsConfigPath} and run opgen edit --plugins grafana again for their dashboard.\n`,
    );
  }
  if (helm && !options.dryRun) {
    process.stdout.write(
      `\nNext: helm lint ${chartDir} && helm install ${project.projectName} ${chartDir} --namespace ${helm.namespace} --create-namespace\n`,
    );
  }
}


function parsePlugins(list: string): PluginName[] {
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  const known = Object.keys(plugins);
  if (names.length === 0) throw new UserError(`--plugins needs a plugin name (known plugins: ${known.join(', ')})`);
  for (const name of names) {
    if (!known.includes(name)) throw new UserError(`unknown plugin "${name}" (known plugins: ${known.join(', ')})`);
  }
  return [...new Set(names)] as PluginName[];
}

/** PROJECT with each plugin recorded under `plugins`, as kubebuilder's PROJECT records its own. */
function withPlugins(project: ProjectConfig, names: readonly PluginName[]): ProjectConfig {
  if (names.length === 0) return project;
  const current = project.extra.plugins ?? {};
  if (typeof current !== 'object' || current === null || Array.isArray(current)) {
    throw new UserError('"plugins" must be a mapping of plugin keys to their settings', { file: projectFileName });
  }
  const recorded: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const name of names) recorded[plugins[name]] ??= {};
  return { ...project, extra: { ...project.extra, plugins: recorded } };
}

/** The chart's files, from what kustomize builds out of config/. */
async function helmFiles(root: string, project: ProjectConfig, force: boolean): Promise<{ files: GeneratedFile[]; namespace: string }> {
  const manifests = kustomize(root, 'config/default');
  const optional: Manifest[] = [];
  for (const extra of ['config/prometheus', 'config/network-policy']) {
    if (existsSync(join(root, extra, 'kustomization.yaml'))) optional.push(...kustomize(root, extra));
  }
  const kustomization = await defaultKustomization(root);
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
  return { files, namespace };
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
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new UserError(`corrupt kustomization: ${error.message.split('\n')[0]}`, { file, line, column: col });
  }
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
