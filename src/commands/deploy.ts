import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { apply, awaitServed, remove } from '../deploy/apply.js';
import { reachableCluster, type ClusterOptions } from '../deploy/cluster.js';
import { requireImage } from '../deploy/image.js';
import { invocation } from '../deploy/invocation.js';
import { build, buildWithImage } from '../deploy/kustomize.js';
import { objectNames } from '../deploy/objects.js';
import { deployProject } from '../deploy/project.js';
import { provideKubectl } from '../kubectl.js';
import { projectDirOption, kubeconfigOption, contextOption } from './shared-options.js';

// kubebuilder's `make install`, `uninstall`, `deploy`, `undeploy` and `build-installer`, with
// kubectl's built-in kustomize and server-side apply: no separate kustomize to install.

interface DeployOptions extends ClusterOptions {
  image?: string;
  dryRun?: boolean;
  dir: string;
}

const installer = 'dist/install.yaml';

const clusterHelp = `
The cluster is kubectl's current context; KUBECTL names the kubectl to run (default: the one on PATH,
else one downloaded once into opgen's cache; OPGEN_K8S_RELEASE_URL for a mirror).
Nothing is applied or deleted unless the cluster answers and your credentials may manage CRDs.`;

/** The flags every command that talks to a cluster takes. */
function clusterCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .addOption(kubeconfigOption())
    .addOption(contextOption())
    .addOption(projectDirOption())
    .hook('preAction', provideKubectl);
}

/** `opgen deploy`: config/default, with the manager's image set, applied server-side. */
export function deployCommand(): Command {
  return clusterCommand('deploy', 'apply config/default (CRDs, RBAC, the manager) to the cluster with the manager\'s image set')
    .option('--image <image>', 'the manager\'s image, e.g. ghcr.io/me/operator:0.1.0 (default: $IMG)')
    .option('--force-conflicts', 'take over fields another field manager changed since the last deploy')
    .option('--dry-run', 'print the manifests that would be applied; contact no cluster')
    .addHelpText(
      'after',
      `${clusterHelp}
The image is set in what kustomize builds, never written into config/.

Examples:
  $ opgen deploy --image ghcr.io/me/operator:0.1.0
  $ IMG=ghcr.io/me/operator:0.1.0 opgen deploy --context staging
  $ opgen deploy --image ghcr.io/me/operator:0.1.0 --dry-run | kubectl diff --server-side -f -`,
    )
    .action((options: DeployOptions) => {
      const project = deployProject(options.dir);
      const manifests = buildWithImage(project.root, requireImage(options.image, 'deploy'));
      if (options.dryRun) return void process.stdout.write(manifests);
      const cluster = reachableCluster('create', options);
      apply(manifests, cluster, project.fieldManager, applyFailure('deploy', 'undeploy'));
    });
}

/** `opgen undeploy`: deletes what `opgen deploy` applied, CRDs first. */
export function undeployCommand(): Command {
  return clusterCommand('undeploy', 'delete every object of config/default from the cluster, the CRDs and their objects first')
    .option('--dry-run', 'print the objects that would be deleted, in order; contact no cluster')
    .addHelpText(
      'after',
      `${clusterHelp}
Deletion goes by kind, namespace and name: whatever image was deployed, this finds it.

Examples:
  $ opgen undeploy
  $ opgen undeploy --kubeconfig ~/.kube/staging --dry-run`,
    )
    .action((options: DeployOptions) => {
      const project = deployProject(options.dir);
      // The CRDs go first, and with them every object of their kinds, while the manager still
      // runs to remove its finalizers from those objects; then the rest, the namespace last.
      const crds = build(project.root, 'config/crd', { allowEmpty: true });
      const manifests = build(project.root, 'config/default');
      if (options.dryRun) return void printDeletions(crds, manifests);
      const cluster = reachableCluster('delete', options);
      if (crds.trim()) {
        awaitServed(crds, cluster);
        remove(crds, cluster);
      }
      remove(manifests, cluster);
    });
}

/** `opgen install`: the CRDs of config/crd, applied server-side. */
export function installCommand(): Command {
  return clusterCommand('install', 'apply the CRDs of config/crd to the cluster (server-side, so large CRDs fit)')
    .option('--force-conflicts', 'take over fields another field manager changed since the last install')
    .option('--dry-run', 'print the CRDs that would be applied; contact no cluster')
    .addHelpText('after', `${clusterHelp}\n\nExamples:\n  $ opgen install\n  $ opgen install --context kind-dev`)
    .action((options: DeployOptions) => {
      const project = deployProject(options.dir);
      const manifests = build(project.root, 'config/crd');
      if (options.dryRun) return void process.stdout.write(manifests);
      apply(manifests, reachableCluster('create', options), project.fieldManager, applyFailure('install', 'uninstall'));
    });
}

/** `opgen uninstall`: deletes the CRDs of config/crd, and with them every object of their kinds. */
export function uninstallCommand(): Command {
  return clusterCommand('uninstall', 'delete the CRDs of config/crd from the cluster, and with them every object of their kinds')
    .option('--dry-run', 'print the CRDs that would be deleted; contact no cluster')
    .addHelpText('after', `${clusterHelp}\n\nExamples:\n  $ opgen uninstall\n  $ opgen uninstall --dry-run`)
    .action((options: DeployOptions) => {
      const project = deployProject(options.dir);
      const manifests = build(project.root, 'config/crd');
      if (options.dryRun) return void printDeletions(manifests);
      const cluster = reachableCluster('delete', options);
      awaitServed(manifests, cluster);
      remove(manifests, cluster);
    });
}

/** `opgen build-installer`: what `opgen deploy` would apply, written to dist/install.yaml. */
export function buildInstallerCommand(): Command {
  return new Command('build-installer')
    .description(`write config/default with the manager's image set to ${installer}, one file that installs the operator`)
    .option('--image <image>', 'the manager\'s image, e.g. ghcr.io/me/operator:0.1.0 (default: $IMG)')
    .option('--dry-run', `print what would be written to ${installer}; write nothing`)
    .addOption(projectDirOption())
    .hook('preAction', provideKubectl)
    .addHelpText(
      'after',
      `\nNeeds kubectl (its built-in kustomize), no cluster. Commit ${installer}: a release URL can serve it.

Examples:
  $ opgen build-installer --image ghcr.io/me/operator:0.1.0
  $ kubectl apply --server-side -f ${installer}`,
    )
    .action((options: DeployOptions) => {
      const project = deployProject(options.dir);
      const image = requireImage(options.image, 'build-installer');
      const manifests = buildWithImage(project.root, image);
      if (options.dryRun) return void process.stdout.write(manifests);
      mkdirSync(join(project.root, 'dist'), { recursive: true });
      // Written beside, then renamed: an interrupted run leaves the previous installer whole.
      const target = join(project.root, installer);
      writeFileSync(`${target}.tmp`, manifests);
      renameSync(`${target}.tmp`, target);
      process.stdout.write(`wrote ${installer} with image ${image}: kubectl apply --server-side -f ${installer}\n`);
    });
}

function applyFailure(command: string, undo: string): string {
  return `${command} failed (kubectl apply, above): objects before the failure may be applied; fix the cause and run ${invocation(command)} again, or remove them with ${invocation(undo)}`;
}

/** The objects a removal deletes, in order, each once. */
function printDeletions(...batches: string[]): void {
  const names = [...new Set(batches.flatMap(objectNames))];
  process.stdout.write(names.map((name) => `delete ${name}\n`).join(''));
}
