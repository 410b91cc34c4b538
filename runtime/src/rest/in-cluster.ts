import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeConfig } from './kubeconfig.js';

/** Where the kubelet mounts a pod's service account. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Where {@link inClusterKubeConfig} looks: the environment and the mounted service account (tests point both elsewhere). */
export interface InClusterSource {
  env?: NodeJS.ProcessEnv;
  /** Default `/var/run/secrets/kubernetes.io/serviceaccount`. */
  directory?: string;
}

/**
 * The kubeconfig of a pod, as client-go's `rest.InClusterConfig`: `https://` +
 * `KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT`, the service account's `ca.crt`, its
 * `token` as a token file (re-read as the kubelet rotates it) and its namespace as the
 * context's. Undefined outside a pod (no service host, port or token).
 *
 * @example
 * const kubeConfig = inClusterKubeConfig() ?? readKubeConfigFile(`${homedir()}/.kube/config`);
 */
export function inClusterKubeConfig(source: InClusterSource = {}): KubeConfig | undefined {
  const env = source.env ?? process.env;
  const directory = source.directory ?? SERVICE_ACCOUNT_DIR;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  const tokenFile = join(directory, 'token');
  if (!host || !port || !existsSync(tokenFile)) return undefined;
  const namespaceFile = join(directory, 'namespace');
  const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined;
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    clusters: [{ name: 'in-cluster', server, caFile: join(directory, 'ca.crt') }],
    users: [{ name: 'in-cluster', tokenFile }],
    contexts: [{ name: 'in-cluster', cluster: 'in-cluster', user: 'in-cluster', ...(namespace ? { namespace } : {}) }],
    currentContext: 'in-cluster',
  };
}
