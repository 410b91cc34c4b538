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
  { name: 'create', term: 'create', description: 'add an API (kind) and its controller to the project' },
  {
    name: 'manifests',
    term: 'manifests [options]',
    description: 'generate CRDs, RBAC roles, webhook configurations and samples from src/api and the markers under src/',
  },
  {
    name: 'edit',
    term: 'edit [options]',
    description: "change the project's settings, or add optional plugins: --plugins helm writes a Helm chart to dist/chart from config/",
  },
  { name: 'delete', term: 'delete', description: 'remove an API (kind) that opgen create api added' },
  { name: 'version', term: 'version', description: 'print the opgen version' },
];
