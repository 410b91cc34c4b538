import { UserError } from '../errors.js';
import { firstLine, kubectl } from '../kubectl.js';

/** How to pick the cluster, from the command's flags. */
export interface ClusterOptions {
  kubeconfig?: string;
  context?: string;
  forceConflicts?: boolean;
}

/** A cluster that answered: the kubectl flags that reach it. */
export interface Cluster {
  flags: string[];
  forceConflicts: boolean;
}

/**
 * The cluster kubectl would talk to, once it answered and allows `verb` on
 * CustomResourceDefinitions (what deploying and removing the operator takes): nothing is
 * applied to a cluster that cannot take all of it.
 */
export function reachableCluster(verb: 'create' | 'delete', options: ClusterOptions): Cluster {
  const flags = [
    ...(options.kubeconfig ? [`--kubeconfig=${options.kubeconfig}`] : []),
    ...(options.context ? [`--context=${options.context}`] : []),
  ];
  const server = kubectl([...flags, 'config', 'view', '--minify', '--output=jsonpath={.clusters[0].cluster.server}']);
  const where = server.ok && server.stdout ? server.stdout : undefined;
  // In a pod, kubectl falls back to the in-cluster configuration without a kubeconfig.
  if (!where && !process.env.KUBERNETES_SERVICE_HOST) {
    const reason =
      server.ok || /current-context must exist/.test(server.stderr) ? 'kubectl has no current context' : firstLine(server.stderr).replace(/^error: /, '');
    throw new UserError(`no cluster to talk to: ${reason} (set KUBECONFIG, pass --kubeconfig <file>, or run kubectl config use-context <name>)`);
  }
  const version = kubectl([...flags, 'version', '--output=json', '--request-timeout=15s']);
  if (!version.ok || !hasServerVersion(version.stdout)) {
    throw new UserError(`cannot reach the Kubernetes API server at ${where ?? 'the in-cluster address'}: ${firstLine(version.stderr) || 'kubectl version failed'}`);
  }
  const allowed = kubectl([...flags, 'auth', 'can-i', verb, 'customresourcedefinitions.apiextensions.k8s.io', '--request-timeout=15s']);
  const answer = allowed.stdout.trim();
  if (answer !== 'yes') {
    const why = answer === 'no' ? '' : ` (${firstLine(allowed.stderr)})`;
    throw new UserError(`your credentials for ${where ?? 'the cluster'} may not ${verb} CustomResourceDefinitions${why}: this needs a cluster administrator`);
  }
  return { flags, forceConflicts: options.forceConflicts === true };
}

/** kubectl version prints the client's version even when the server did not answer. */
function hasServerVersion(json: string): boolean {
  try {
    return (JSON.parse(json) as { serverVersion?: unknown }).serverVersion !== undefined;
  } catch {
    return false;
  }
}
