import type { KubeConfig } from '@kubernetes/client-node';
import { clientNode } from '../rest/client-node.js';

/** How to reach the API server as one identity. */
export interface ClusterAccess {
  server: string;
  /** PEM bundle of the API server's serving CA. */
  caPem: string;
  user: string;
  token: string;
}

const CLUSTER = 'opgen-test';

/** A KubeConfig whose current context is `access`. */
export function kubeConfigFor(access: ClusterAccess): KubeConfig {
  const kubeConfig = new (clientNode().KubeConfig)();
  kubeConfig.loadFromOptions({
    clusters: [
      { name: CLUSTER, server: access.server, caData: Buffer.from(access.caPem).toString('base64'), skipTLSVerify: false },
    ],
    users: [{ name: access.user, token: access.token }],
    contexts: [{ name: CLUSTER, cluster: CLUSTER, user: access.user, namespace: 'default' }],
    currentContext: CLUSTER,
  });
  return kubeConfig;
}
