import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { clientNode } from '../rest/client-node.js';

const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/**
 * Loads the cluster config the way controller-runtime does: `path` (the `--kubeconfig`
 * flag), else `$KUBECONFIG`, else the in-cluster service account, else `~/.kube/config`.
 * Throws a one-line error when none is available instead of silently talking to
 * localhost:8080.
 */
export function loadKubeConfig(path?: string): KubeConfig {
  const config = new (clientNode().KubeConfig)();
  const fromEnv = process.env.KUBECONFIG;
  if (path) {
    config.loadFromFile(path);
  } else if (fromEnv) {
    config.loadFromDefault();
  } else if (process.env.KUBERNETES_SERVICE_HOST && existsSync(SERVICE_ACCOUNT_TOKEN)) {
    config.loadFromCluster();
  } else if (existsSync(join(homedir(), '.kube', 'config'))) {
    config.loadFromFile(join(homedir(), '.kube', 'config'));
  } else {
    throw new Error('no kubeconfig: pass --kubeconfig, set KUBECONFIG, create ~/.kube/config, or run in a cluster');
  }
  if (!config.getCurrentCluster()) {
    const source = path ?? fromEnv ?? 'in-cluster config';
    throw new Error(`kubeconfig ${source} has no current cluster: check its current-context`);
  }
  return config;
}
