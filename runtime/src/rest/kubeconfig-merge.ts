import type { KubeConfig } from './kubeconfig.js';

/**
 * Merges kubeconfigs as kubectl merges the files of `KUBECONFIG`: the first to define a
 * cluster, user or context by a name wins, and so does the first current-context set
 * (clientcmd's `ClientConfigLoadingRules.Load`).
 *
 * @example
 * mergeKubeConfigs([readKubeConfigFile(a), readKubeConfigFile(b)]);
 */
export function mergeKubeConfigs(configs: readonly KubeConfig[]): KubeConfig {
  const firstByName = <T extends { name: string }>(lists: (readonly T[])[]): T[] => {
    const seen = new Map<string, T>();
    for (const list of lists) for (const item of list) if (!seen.has(item.name)) seen.set(item.name, item);
    return [...seen.values()];
  };
  return {
    clusters: firstByName(configs.map((c) => c.clusters)),
    users: firstByName(configs.map((c) => c.users)),
    contexts: firstByName(configs.map((c) => c.contexts)),
    currentContext: configs.find((c) => c.currentContext)?.currentContext ?? '',
  };
}
