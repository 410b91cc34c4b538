/**
 * What `opgen --help` lists for each top-level command, so that listing them loads none of
 * their modules (`opgen manifests` alone pulls in TypeScript). test/cli-startup.test.ts checks
 * every entry against the command it summarises.
 */
export interface CommandSummary {
  readonly name: string;
  /** The command as the help's "Commands:" list shows it, e.g. `init [options]`. */
  readonly term: string;
  readonly description: string;
}

export const commandSummaries: readonly CommandSummary[] = [
  { name: 'init', term: 'init [options]', description: 'scaffold a new operator project in the current directory' },
  { name: 'create', term: 'create', description: 'add an API (kind) and its controller, or webhooks of a kind, to the project' },
  {
    name: 'manifests',
    term: 'manifests [options]',
    description: 'generate CRDs, RBAC roles, webhook configurations and samples from src/api and the markers under src/',
  },
  {
    name: 'edit',
    term: 'edit [options]',
    description: "change the project's settings, or add optional plugins: --plugins helm writes a Helm chart to dist/chart from config/, --plugins grafana Grafana dashboards to grafana/, --plugins multicluster makes the operator reconcile every cluster a kubeconfig Secret names",
  },
  {
    name: 'dev',
    term: 'dev [options]',
    description: 'run the operator against a memory cluster served on loopback (or --context), reloading it on every save',
  },
  { name: 'import', term: 'import', description: "generate typed API files from other projects' CRDs" },
  { name: 'delete', term: 'delete', description: 'remove an API (kind) that opgen create api added' },
  { name: 'install', term: 'install [options]', description: 'apply the CRDs of config/crd to the cluster (server-side, so large CRDs fit)' },
  { name: 'uninstall', term: 'uninstall [options]', description: 'delete the CRDs of config/crd from the cluster, and with them every object of their kinds' },
  { name: 'deploy', term: 'deploy [options]', description: "apply config/default (CRDs, RBAC, the manager) to the cluster with the manager's image set" },
  { name: 'undeploy', term: 'undeploy [options]', description: 'delete every object of config/default from the cluster, the CRDs and their objects first' },
  {
    name: 'build-installer',
    term: 'build-installer [options]',
    description: "write config/default with the manager's image set to dist/install.yaml, one file that installs the operator",
  },
  {
    name: 'upgrade',
    term: 'upgrade [options]',
    description: "bring the project to this opgen's scaffold: your edits kept, opgen's changes merged in, generated files regenerated",
  },
  { name: 'alpha', term: 'alpha', description: 'experimental commands: generate re-scaffolds the project from PROJECT' },
  {
    name: 'bundle',
    term: 'bundle [options]',
    description: 'write an OLM bundle (bundle/manifests with the ClusterServiceVersion, bundle/metadata, bundle.Dockerfile) from config/',
  },
  {
    name: 'scorecard',
    term: 'scorecard [options] [bundle]',
    description: "run operator-sdk's basic and OLM scorecard checks against a bundle and the cluster",
  },
  {
    name: 'setup-envtest',
    term: 'setup-envtest [options]',
    description: "download the test control plane (etcd, kube-apiserver, kubectl) into opgen's cache, verified, ahead of `npm test`",
  },
  {
    name: 'migrate-storage',
    term: 'migrate-storage [options]',
    description: "rewrite every object of the project's CRDs into their storage version and trim status.storedVersions, on the current kubectl context (or --context)",
  },
  { name: 'version', term: 'version', description: 'print the opgen version' },
];
