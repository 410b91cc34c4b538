import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { apiServerFiles, apiServerUrl, startApiServer, type ApiServerConfig } from './apiserver.js';
import { resolveBinaries } from './binaries.js';
import { startControllerManager } from './controller-manager.js';
import { ADMIN_USER, serviceAccountKeyPair, staticUser, tokenAuthFile, type StaticUser } from './credentials.js';
import { compactEtcd, etcdUrl, startEtcd } from './etcd.js';
import { identities, type Identity } from './identities.js';
import { createLifecycle } from './lifecycle.js';
import { ensurePortFree, freePort } from './ports.js';

/** How to start a control plane; every field is optional. */
export interface ControlPlaneOptions {
  /**
   * Also run kube-controller-manager: garbage collection, namespace deletion, and the
   * workload controllers (Deployments, ReplicaSets, Jobs, ...). Off by default: it costs
   * memory and most controller tests need only the API server.
   */
  controllerManager?: boolean;
  /**
   * Upper bound for starting the processes (a first download or build of the binaries is not counted),
   * and for restartApiServer(). Default 60 s.
   */
  startTimeoutMs?: number;
  /**
   * The API server's watch cache (default on, as in real clusters). Off, every watch and
   * list goes to etcd, so after {@link ControlPlane.compactEtcd} any watch from an older
   * resourceVersion fails with 410 Gone at once.
   */
  watchCache?: boolean;
  /** Extra users the API server accepts by token; see {@link ControlPlane.userKubeConfig}. */
  users?: Array<{ name: string; groups?: string[] }>;
  /** Fixed loopback ports; by default free ones are picked. A taken port is an error. */
  apiServerPort?: number;
  etcdPort?: number;
  /** Flags appended to each binary's command line (later flags win). */
  extraArgs?: { etcd?: string[]; kubeApiServer?: string[]; kubeControllerManager?: string[] };
}

/** A running control plane. Call stop() when done, also when the test failed. */
export interface ControlPlane {
  /** Admin access (`system:masters`), namespace `default`. */
  readonly kubeConfig: KubeConfig;
  /** The same as a file, for processes started with `KUBECONFIG` or `--kubeconfig`. */
  readonly kubeconfigPath: string;
  /** The API server's URL, `https://127.0.0.1:<port>`. */
  readonly server: string;
  /** etcd's client URL. */
  readonly etcdUrl: string;
  /** The temp dir holding data, keys and logs; removed by stop(). */
  readonly dir: string;
  /**
   * The kubectl that comes with the binaries (same Kubernetes version); run it through
   * `kubectlFor(controlPlane)`, or yourself with `--kubeconfig` {@link kubeconfigPath}.
   */
  readonly kubectlPath: string;
  /** The running processes with their pids (the API server's changes on restart). */
  processes(): Array<{ name: string; pid: number }>;
  /** Access as one of the `users` given at start. */
  userKubeConfig(name: string): Identity;
  /**
   * Access as a ServiceAccount, through a TokenRequest; the ServiceAccount must exist.
   * The token stays valid across API server restarts.
   */
  serviceAccountKubeConfig(namespace: string, name: string, options?: { expirationSeconds?: number }): Promise<Identity>;
  /**
   * Stops the API server and starts it again on the same port, against the same etcd, and
   * waits until it is ready. Clients' watches break and must resume; a watch resumed from
   * a resourceVersion older than the new server's watch cache gets 410 Gone. `downMs`
   * keeps it stopped that long first: an outage, as clients see one.
   */
  restartApiServer(options?: { downMs?: number }): Promise<void>;
  /**
   * Compacts etcd's history so that every resourceVersion seen so far is too old, and
   * returns the revision compacted to. Requests that reach etcd from such a version then
   * fail with 410 Gone: watches do when the watch cache is off (`watchCache: false`);
   * with it on, the API server answers watches from its cache window until it restarts.
   */
  compactEtcd(): Promise<number>;
  /** Ends every process it started and removes its temp dir. Safe to call twice. */
  stop(): Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 60_000;
const PORT_ATTEMPTS = 3;
// Reverse start order: an API server whose etcd is gone hangs in its shutdown.
const STOP_ORDER = ['kube-controller-manager', 'kube-apiserver', 'etcd'];

/**
 * Starts etcd and kube-apiserver (and kube-controller-manager when asked) on free loopback
 * ports and resolves once the API server is ready and the `default` namespace exists.
 * Binaries come from KUBEBUILDER_ASSETS, the cache, a download or a build (see resolveBinaries).
 *
 * On any failure (missing binary, taken port, a process exiting, the timeout) it rejects
 * with an error that includes the failing process's last log lines, after ending every
 * process it started and removing its temp dir. If this process exits or is killed
 * without stop(), exit handlers and a watchdog process clean up.
 *
 * @example
 * const cp = await startControlPlane({ controllerManager: true });
 * try { const core = cp.kubeConfig.makeApiClient(CoreV1Api); ... } finally { await cp.stop(); }
 */
export async function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const timeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const extra = options.extraArgs ?? {};

  const admin = staticUser(ADMIN_USER, ['system:masters']);
  const users = new Map<string, StaticUser>();
  for (const user of options.users ?? []) {
    if (user.name === ADMIN_USER) throw new Error(`user name ${ADMIN_USER} is taken by the harness's admin`);
    if (users.has(user.name)) throw new Error(`user ${user.name} is given twice`);
    users.set(user.name, staticUser(user.name, user.groups));
  }
  if (options.apiServerPort !== undefined) await ensurePortFree(options.apiServerPort, 'API server');
  if (options.etcdPort !== undefined) await ensurePortFree(options.etcdPort, 'etcd');
  const binaries = await resolveBinaries({ controllerManager: options.controllerManager ?? false, kubectl: true });
  const deadline = Date.now() + timeoutMs;

  const lifecycle = createLifecycle();
  const { dir, supervise } = lifecycle;
  const stop = (): Promise<void> => lifecycle.stop(STOP_ORDER);
  try {
    const files = apiServerFiles(dir);
    const keys = serviceAccountKeyPair();
    writeFileSync(files.serviceAccountKey, keys.privateKeyPem, { mode: 0o600 });
    writeFileSync(files.serviceAccountPub, keys.publicKeyPem);
    writeFileSync(files.tokens, tokenAuthFile([admin, ...users.values()]), { mode: 0o600 });

    const etcd = await onFreshPorts(options.etcdPort !== undefined, async () => {
      const clientPort = options.etcdPort ?? (await freePort());
      const config = { binary: binaries.etcd, dir, clientPort, peerPort: await freePort(), extraArgs: extra.etcd ?? [] };
      await startEtcd(config, deadline, supervise);
      return etcdUrl(config);
    });

    const { apiConfig, caPem } = await onFreshPorts(options.apiServerPort !== undefined, async () => {
      const config: ApiServerConfig = {
        binary: binaries.kubeApiServer,
        dir,
        port: options.apiServerPort ?? (await freePort()),
        etcdUrl: etcd,
        adminToken: admin.token,
        watchCache: options.watchCache ?? true,
        extraArgs: extra.kubeApiServer ?? [],
      };
      const started = await startApiServer(config, deadline, supervise);
      return { apiConfig: config, caPem: started.caPem };
    });
    const server = apiServerUrl(apiConfig.port);
    const make = identities(dir, server, caPem);
    const adminIdentity = make.tokenUser('admin.kubeconfig', admin.name, admin.token);
    const userIdentities = new Map(
      [...users.values()].map((u, i) => [u.name, make.tokenUser(`user-${i}.kubeconfig`, u.name, u.token)]),
    );

    if (binaries.kubeControllerManager) {
      const config = {
        binary: binaries.kubeControllerManager,
        dir,
        kubeconfig: adminIdentity.kubeconfigPath,
        serviceAccountKey: files.serviceAccountKey,
        rootCa: files.servingCert,
        extraArgs: extra.kubeControllerManager ?? [],
      };
      mkdirSync(join(dir, 'flexvolume'));
      await onFreshPorts(false, async () =>
        startControllerManager({ ...config, port: await freePort() }, deadline, supervise),
      );
    }

    return {
      kubeConfig: adminIdentity.kubeConfig,
      kubeconfigPath: adminIdentity.kubeconfigPath,
      server,
      etcdUrl: etcd,
      dir,
      // Asked for above, so resolveBinaries found it or threw.
      kubectlPath: binaries.kubectl as string,
      processes: () => lifecycle.running().map((p) => ({ name: p.name, pid: p.pid })),
      userKubeConfig: (name) => {
        const found = userIdentities.get(name);
        if (!found) throw new Error(`no user ${name}: pass it in startControlPlane({ users })`);
        return found;
      },
      serviceAccountKubeConfig: (namespace, name, { expirationSeconds = 3600 } = {}) =>
        make.serviceAccount(adminIdentity.kubeConfig, namespace, name, expirationSeconds),
      restartApiServer: async (restart = {}) => {
        await lifecycle.stopProcesses('kube-apiserver');
        if (restart.downMs) await new Promise((resolve) => setTimeout(resolve, restart.downMs));
        await startApiServer(apiConfig, Date.now() + timeoutMs, supervise);
      },
      compactEtcd: () => compactEtcd(etcd),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Runs a start that picks its own free ports, again with new ones when a port was taken
 * between picking and binding (another control plane starting at the same moment).
 */
async function onFreshPorts<T>(fixedPorts: boolean, start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      const clash = /address already in use/i.test((error as Error).message);
      if (fixedPorts || !clash || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}
