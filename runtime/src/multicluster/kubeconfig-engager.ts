import { createHash } from 'node:crypto';
import { parseKubeConfig } from '../rest/kubeconfig-file.js';
import { currentContextOf, type KubeConfig } from '../rest/kubeconfig.js';
import type { Cluster } from '../rest/cluster.js';
import type { ClusterTarget, FleetAccess } from './provider.js';

/** Turns a kubeconfig read from the API into the connection of its cluster; see `KubeconfigSecretClustersOptions.connect`. */
export type Connect = (kubeConfig: KubeConfig, name: string) => KubeConfig | Cluster;

/** Engages clusters from kubeconfigs held in Secrets, the machinery every kubeconfig-keyed provider shares. */
export interface KubeconfigEngager {
  /**
   * Engages `name` from `encoded` (a Secret's base64 data), unless it is engaged from the
   * same kubeconfig already; a changed one re-engages it, a missing or unreadable one
   * disengages it and logs why, naming `source`.
   */
  engage(name: string, encoded: string | undefined, source: string): void;
  disengage(name: string): void;
}

/** The engager of one provider run on `fleet`. */
export function kubeconfigEngager(fleet: FleetAccess, connect: Connect | undefined): KubeconfigEngager {
  /** The hash of the kubeconfig each engaged cluster was built from: an unchanged one is left alone. */
  const engagedFrom = new Map<string, string>();
  const disengage = (name: string): void => {
    engagedFrom.delete(name);
    fleet.disengage(name);
  };
  const connection = (text: string, name: string): ClusterTarget | Error => {
    try {
      const kubeConfig = parseKubeConfig(text);
      currentContextOf(kubeConfig);
      return connect ? connect(kubeConfig, name) : kubeConfig;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  return {
    engage(name, encoded, source) {
      const hash = encoded && createHash('sha256').update(encoded).digest('hex');
      if (hash && hash === engagedFrom.get(name) && fleet.has(name)) return;
      const target = hash ? connection(Buffer.from(encoded, 'base64').toString('utf8'), name) : new Error('it holds no kubeconfig');
      if (target instanceof Error) {
        fleet.log.error({ cluster: name, source, err: target }, 'No usable kubeconfig: the cluster is not engaged');
        return disengage(name);
      }
      engagedFrom.set(name, hash!);
      fleet.engage(name, target);
    },
    disengage,
  };
}
