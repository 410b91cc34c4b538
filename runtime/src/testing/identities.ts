import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { clientNode } from '../rest/client-node.js';
import { kubeConfigFor } from './kubeconfig.js';
import { writeKubeConfig } from './kubeconfig-files.js';

/** A kubeconfig for one identity, in memory and on disk (inside the control plane's dir). */
export interface Identity {
  kubeConfig: KubeConfig;
  kubeconfigPath: string;
}

/** Makes identities for one API server; their kubeconfig files go into `dir`. */
export function identities(dir: string, server: string, caPem: string) {
  const make = (file: string, user: string, token: string): Identity => {
    const kubeConfig = kubeConfigFor({ server, caPem, user, token });
    const kubeconfigPath = join(dir, file);
    writeKubeConfig(kubeConfig, kubeconfigPath);
    return { kubeConfig, kubeconfigPath };
  };

  return {
    /** A user authenticated by a static token. */
    tokenUser: make,
    /** A ServiceAccount, through a TokenRequest made by `admin`. */
    serviceAccount: async (
      admin: KubeConfig,
      namespace: string,
      name: string,
      expirationSeconds: number,
    ): Promise<Identity> => {
      const request = await admin.makeApiClient(clientNode().CoreV1Api).createNamespacedServiceAccountToken({
        namespace,
        name,
        // No audiences: the API server's own, so the token works against it.
        body: { spec: { audiences: [], expirationSeconds } },
      });
      const token = request.status?.token;
      if (!token) throw new Error(`the API server issued no token for ServiceAccount ${namespace}/${name}`);
      return make(`serviceaccount-${namespace}-${name}.kubeconfig`, `system:serviceaccount:${namespace}:${name}`, token);
    },
  };
}
