import { join } from 'node:path';
import { httpCall } from './http.js';
import { LOOPBACK } from './ports.js';
import { startProcess, type ManagedProcess, type Supervise } from './process.js';
import { waitUntilReady } from './wait.js';

/** What kube-controller-manager needs from the rest of the control plane. */
export interface ControllerManagerConfig {
  binary: string;
  dir: string;
  port: number;
  /** An admin kubeconfig file; each controller then uses its own ServiceAccount. */
  kubeconfig: string;
  serviceAccountKey: string;
  /** The CA bundle published to pods as `kube-root-ca.crt`. */
  rootCa: string;
  extraArgs: string[];
}

/**
 * Starts kube-controller-manager with every default controller (garbage collector,
 * namespace, workloads, ...) and waits until it serves `/healthz`. Its controllers start
 * a few seconds later, once their informers have synced.
 */
export async function startControllerManager(
  config: ControllerManagerConfig,
  deadline: number,
  supervise: Supervise,
): Promise<ManagedProcess> {
  const args = [
    `--kubeconfig=${config.kubeconfig}`,
    `--service-account-private-key-file=${config.serviceAccountKey}`,
    `--root-ca-file=${config.rootCa}`,
    '--use-service-account-credentials=true',
    '--controllers=*',
    '--leader-elect=false',
    `--bind-address=${LOOPBACK}`,
    `--secure-port=${config.port}`,
    `--cert-dir=${join(config.dir, 'controller-manager-certs')}`,
    // Its default is a system directory it would create.
    `--flex-volume-plugin-dir=${join(config.dir, 'flexvolume')}`,
    '--profiling=false',
    ...config.extraArgs,
  ];
  const manager = supervise(
    await startProcess('kube-controller-manager', config.binary, args, join(config.dir, 'kube-controller-manager.log')),
  );
  const url = `https://${LOOPBACK}:${config.port}/healthz`;
  await waitUntilReady(manager, url, deadline, async () => {
    // Its serving cert is self-signed on the fly; on loopback the health answer is all we need.
    const response = await httpCall(url);
    if (response.status !== 200) throw new Error(`GET /healthz: ${response.status} ${response.body.trim()}`);
  });
  return manager;
}
