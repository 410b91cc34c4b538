import type { ControlPlane, ControlPlaneOptions } from './controlplane.js';

/**
 * Starts etcd and kube-apiserver (and kube-controller-manager when asked) on free loopback
 * ports; see `controlplane.ts` for what it waits for and how it cleans up. The control
 * plane's code (processes, credentials, binaries, client-node) loads on the first call, so a
 * test file on the memory tier imports `@opgen/runtime/testing` without reading any of it.
 *
 * @example
 * const cp = await startControlPlane({ controllerManager: true });
 * try { const core = cp.kubeConfig.makeApiClient(CoreV1Api); ... } finally { await cp.stop(); }
 */
export async function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const { startControlPlane: start } = await import('./controlplane.js');
  return start(options);
}
