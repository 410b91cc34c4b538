import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { currentContextOf, withContext, type KubeConfig } from './kubeconfig.js';
import { readKubeConfigFile } from './kubeconfig-file.js';
import { mergeKubeConfigs } from './kubeconfig-merge.js';
import { inClusterKubeConfig, type InClusterSource } from './in-cluster.js';

/** Options of {@link loadKubeConfig}. */
export interface LoadKubeConfigOptions {
  /** Use this context instead of the current one (controller-runtime's `GetConfigWithContext`). */
  context?: string;
  /** Where to look instead of the process's environment, home and service account (tests). */
  env?: NodeJS.ProcessEnv;
  home?: string;
  inCluster?: InClusterSource;
}

/**
 * Loads the cluster config as controller-runtime's `GetConfig` does: `path` (the
 * `--kubeconfig` flag), else the files of `$KUBECONFIG` merged as kubectl merges them,
 * else the in-cluster service account, else `~/.kube/config`. Throws a one-line error
 * when none is there, instead of silently talking to localhost:8080. Needs no
 * `@kubernetes/client-node`.
 *
 * @example
 * import { createManager, loadKubeConfig } from '@opgen/runtime/manager';
 *
 * const mgr = createManager({ kubeConfig: loadKubeConfig(undefined, { context: 'staging' }) });
 */
export function loadKubeConfig(path?: string, options: LoadKubeConfigOptions = {}): KubeConfig {
  const env = options.env ?? process.env;
  const fromEnv = env.KUBECONFIG;
  const home = join(options.home ?? homedir(), '.kube', 'config');
  let config: KubeConfig | undefined;
  let source: string;
  if (path) {
    source = path;
    config = readKubeConfigFile(path);
  } else if (fromEnv) {
    source = `KUBECONFIG=${fromEnv}`;
    const files = [...new Set(fromEnv.split(delimiter).filter((file) => file !== ''))].filter((file) => existsSync(file));
    if (files.length === 0) throw new Error(`no kubeconfig: none of the files of ${source} exists`);
    config = mergeKubeConfigs(files.map(readKubeConfigFile));
  } else if ((config = inClusterKubeConfig({ env, ...options.inCluster }))) {
    source = 'in-cluster config';
  } else if (existsSync(home)) {
    source = home;
    config = readKubeConfigFile(home);
  } else {
    throw new Error('no kubeconfig: pass --kubeconfig, set KUBECONFIG, create ~/.kube/config, or run in a cluster');
  }
  if (options.context) config = withContext(config, options.context);
  try {
    currentContextOf(config);
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message.replace(/^kubeconfig:? ?/, '')}`);
  }
  return config;
}
