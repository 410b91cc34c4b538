import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { UserError } from '../errors.js';
import { parseBool } from './bool-flag.js';
import { certificatesEdit } from './edit-certificates.js';
import { helmFiles, type HelmChartUpdate } from './edit-helm.js';
import { layoutEdit } from './edit-layout.js';
import { multiclusterEdit } from './edit-multicluster.js';
import { multiclusterPlugin } from '../generators/multicluster/plugin.js';
import { customMetricsConfigPath, grafanaFiles } from '../generators/grafana/index.js';
import { chartDir } from '../generators/helm/index.js';
import { loadProject } from '../project/load.js';
import { projectFileName, type ProjectConfig } from '../project/model.js';
import type { CertificateMode } from '../project/webhooks.js';
import { serializeProject } from '../project/serialize.js';
import { applyChanges, formatPlan, planChanges, type GeneratedFile, type PlannedChange } from '../writer/index.js';
import { readIfExists } from '../read-if-exists.js';
import { projectDirOption, type ProjectDirFlag } from './shared-options.js';

interface EditOptions {
  plugins?: string;
  multigroup?: boolean;
  namespaced?: boolean;
  webhookCertificates?: CertificateMode;
  /** `--cert-manager`: `webhookCertificates` cert-manager (true) or built-in (false). */
  certManager?: boolean;
  force?: boolean;
  dryRun?: boolean;
}

/** The plugins `opgen edit` knows, by the name `--plugins` takes, with the key PROJECT records. */
const plugins = { helm: 'helm.opgen.dev/v1-alpha', grafana: 'grafana.opgen.dev/v1-alpha', multicluster: multiclusterPlugin } as const;
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

  # Reconcile every cluster a kubeconfig Secret names, as opgen init --multicluster does
  $ opgen edit --plugins multicluster

  # New kinds of any group under src/api/<group>/<version>/ (existing kinds stay where they are)
  $ opgen edit --multigroup

  # Watch one namespace: a Role instead of a ClusterRole (then run opgen manifests)
  $ opgen edit --namespaced

  # The webhooks' certificates from cert-manager instead of the built-in ones (and back)
  $ opgen edit --webhook-certificates cert-manager
  $ opgen edit --webhook-certificates built-in
  $ opgen edit --cert-manager`;

/** `opgen edit`: adds optional plugins to a project; `helm` writes a Helm chart. */
export function editCommand(): Command {
  return new Command('edit')
    .description('change the project\'s settings, or add optional plugins: --plugins helm writes a Helm chart to dist/chart from config/, --plugins grafana Grafana dashboards to grafana/, --plugins multicluster makes the operator reconcile every cluster a kubeconfig Secret names')
    .option('--plugins <names>', `comma-separated plugins (known: ${Object.keys(plugins).join(', ')})`)
    .option('--multigroup [bool]', 'new kinds go under src/api/<group>/<version>/, for several API groups; --multigroup=false for one group', parseBool)
    .option('--namespaced [bool]', 'the operator watches one namespace (a Role); --namespaced=false for the whole cluster (a ClusterRole)', parseBool)
    .addOption(
      new Option('--webhook-certificates <mode>', "the webhook server's certificate: built in (kept by the manager in a Secret) or cert-manager's; rewrites config/ (and the Helm chart) for it").choices(['built-in', 'cert-manager']),
    )
    .option('--cert-manager [bool]', 'the same as --webhook-certificates cert-manager; --cert-manager=false for built-in', parseBool)
    .option('--force', `also rewrite ${chartDir}/Chart.yaml and values.yaml, which are otherwise written only once, and the files you changed that --webhook-certificates rewrites or deletes`)
    .addOption(projectDirOption())
    .option('--dry-run', 'print what would be written; write nothing')
    .addHelpText('after', examples)
    .action(async ({ dir, ...options }: EditOptions & ProjectDirFlag) => {
      await runEdit(dir, options);
    });
}

/** Changes the settings and runs the plugins `options` name in the project at `root`. */
export async function runEdit(root: string, given: EditOptions): Promise<void> {
  const dir = resolve(root);
  const options = withCertManagerFlag(given);
  if (options.plugins === undefined && options.multigroup === undefined && options.namespaced === undefined && options.webhookCertificates === undefined) {
    throw new UserError('nothing to edit', undefined, 'pass --plugins, --multigroup, --namespaced or --webhook-certificates; see opgen edit --help');
  }
  if (options.webhookCertificates !== undefined && options.namespaced !== undefined) {
    // Both rewrite config/rbac; one setting at a time keeps each plan readable and each file's owner clear.
    throw new UserError('--webhook-certificates and --namespaced both change config/rbac; change one, then the other', undefined, 'run opgen edit twice');
  }
  const names = options.plugins === undefined ? [] : parsePlugins(options.plugins);
  const settings = options.multigroup !== undefined || options.namespaced !== undefined || options.webhookCertificates !== undefined;
  if (names.includes('multicluster') && settings) {
    // Each rewrites src/main.ts or config/; one at a time keeps each plan readable.
    throw new UserError('--plugins multicluster changes src/main.ts and config/ on its own; change the settings, then add it', undefined, 'run opgen edit twice');
  }
  const loaded = await loadProject(dir, 'opgen edit');
  const layout = await layoutEdit(dir, loaded, { multigroup: options.multigroup, namespaced: options.namespaced });
  const certificates = await certificatesEdit(dir, layout.project, options.webhookCertificates, options.force ?? false);
  const onlyCertificates = names.length === 0 && options.multigroup === undefined && options.namespaced === undefined;
  if (certificates.unchanged && onlyCertificates) {
    process.stdout.write(`${certificates.unchanged}\n`);
    return;
  }
  const fleet = names.includes('multicluster') ? await multiclusterEdit(dir, certificates.project) : undefined;
  const project = fleet?.project ?? certificates.project;
  const files: GeneratedFile[] = [...layout.files, ...certificates.updates, ...(fleet?.files ?? [])];
  // The chart follows config/: when asked, and when the certificates change config/ under an existing chart.
  const chartFollows = certificates.updates.length + certificates.deletes.length > 0 && existsSync(join(dir, chartDir, 'Chart.yaml'));
  // --force rewrites Chart.yaml and values.yaml only when the chart is asked for.
  const helm: HelmChartUpdate | undefined =
    names.includes('helm') || chartFollows ? await helmFiles(dir, project, names.includes('helm') && (options.force ?? false), certificates) : undefined;
  if (helm) files.push(...helm.files);
  if (names.includes('grafana')) files.push(...grafanaFiles(project.projectName, await readIfExists(join(dir, customMetricsConfigPath))));
  files.push({ path: projectFileName, content: serializeProject(withPlugins(project, names)), ownership: 'generated' });

  // One plan for the writer, deletions included: a failure leaves the project as it was.
  const deletes = [...certificates.deletes, ...(helm?.deletes ?? [])];
  const deletions = deletes.map((path): PlannedChange => ({ path, action: 'DELETE', file: { path, content: '', ownership: 'generated' } }));
  const changes = [...(await planChanges(dir, files, { force: options.force ?? false })), ...deletions].sort((a, b) => a.path.localeCompare(b.path));
  if (!options.dryRun) await applyChanges(dir, changes);
  const report = formatPlan(changes, { dryRun: options.dryRun ?? false });
  if (report) process.stdout.write(`${report}\n`);
  for (const path of layout.kept) {
    process.stdout.write(`  kept ${path}: you changed it; make it fit --namespaced=${project.namespaced} yourself\n`);
  }
  for (const path of certificates.kept) {
    process.stdout.write(`  kept ${path}: you changed it since opgen wrote it; make it fit --webhook-certificates ${options.webhookCertificates} yourself, or pass --force\n`);
  }
  for (const path of fleet?.kept ?? []) {
    process.stdout.write(`  kept ${path}: you changed it since opgen wrote it; make it fit --plugins multicluster yourself (as opgen init --multicluster writes it)\n`);
  }
  if (certificates.unchanged) process.stdout.write(`${certificates.unchanged}\n`);
  for (const note of certificates.notes) process.stdout.write(`\n${note}\n`);
  if (loaded.multigroup !== project.multigroup && loaded.resources.some((r) => r.path?.startsWith('src/'))) {
    process.stdout.write(`\nThe kinds you have stay where PROJECT's path says; new kinds go to ${project.multigroup ? 'src/api/<group>/<version>/' : 'src/api/<version>/'}.\n`);
  }
  if (loaded.namespaced !== project.namespaced && !options.dryRun) process.stdout.write('\nNext: npm run manifests, which writes the new config/rbac/role.yaml.\n');
  if (names.includes('grafana') && !options.dryRun) {
    process.stdout.write(
      `\nNext: import grafana/*.json in Grafana (Dashboards → New → Import); list your own metrics in ${customMetricsConfigPath} and run opgen edit --plugins grafana again for their dashboard.\n`,
    );
  }
  if (fleet && fleet.files.length > 0 && !options.dryRun) {
    process.stdout.write('\nNext: npm test; then name each cluster with a kubeconfig Secret in the manager\'s namespace (see src/main.ts).\n');
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

/** `--cert-manager[=bool]` read as the `--webhook-certificates` it stands for. */
function withCertManagerFlag(options: EditOptions): EditOptions {
  if (options.certManager === undefined) return options;
  const mode = options.certManager ? 'cert-manager' : 'built-in';
  if (options.webhookCertificates !== undefined && options.webhookCertificates !== mode) {
    throw new UserError(`--cert-manager=${options.certManager} and --webhook-certificates ${options.webhookCertificates} ask for different certificates`, undefined, 'pass one of them');
  }
  return { ...options, webhookCertificates: mode };
}
