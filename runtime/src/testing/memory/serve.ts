/**
 * The memory cluster served over HTTPS on loopback, so that kubectl, an operator run as a
 * process, or any Kubernetes client reaches it as a real API server: a self-signed
 * certificate (the one the webhook and metrics servers make), a bearer token, and a
 * kubeconfig naming both. `opgen dev` runs its cluster this way.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { selfSignedCertificate } from '../../certs/self-signed-cert.js';
import { writeKubeConfig } from '../kubeconfig-files.js';
import { createMemoryCluster, type MemoryCluster, type MemoryClusterOptions } from './cluster.js';
import { memoryRequestHandler } from './http-handler.js';

/** Options of {@link serveMemoryCluster}: the cluster's, and where to listen. */
export interface ServeMemoryClusterOptions extends Omit<MemoryClusterOptions, 'clock'> {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1: loopback only. */
  host?: string;
}

/** A memory cluster answering HTTPS requests. */
export interface ServedMemoryCluster {
  /** The cluster itself (in-process transport, server, clock). */
  readonly memory: MemoryCluster;
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** The bearer token requests must carry. */
  readonly token: string;
  /** The serving certificate, the one CA a client trusts. */
  readonly caPem: string;
  /** A kubeconfig whose current context is this cluster (namespace `default`). */
  kubeConfig(): KubeConfig;
  /** Writes that kubeconfig to `path`, readable by its owner only (it holds the token). */
  writeKubeConfig(path: string): void;
  /** Ends open watches and connections, stops listening and stops the cluster. */
  close(): Promise<void>;
}

/**
 * Starts a memory cluster and serves it over HTTPS on loopback. Its clock follows the wall
 * clock (timestamps are real times); nothing drives it with `runUntilIdle`.
 *
 * @example
 * import { serveMemoryCluster } from '@opgen/runtime/testing';
 *
 * const served = await serveMemoryCluster({ crds: readCRDs('config/crd/bases') });
 * served.writeKubeConfig('.opgen/dev/kubeconfig');
 * // kubectl --kubeconfig .opgen/dev/kubeconfig get namespaces
 * await served.close();
 */
export async function serveMemoryCluster(options: ServeMemoryClusterOptions = {}): Promise<ServedMemoryCluster> {
  const memory = await createMemoryCluster(options);
  const { clock } = memory;
  const started = clock.wall().getTime() - clock.now();
  // The fake clock moves to the wall time before each request, so what a request writes is stamped now.
  const followWallClock = () => {
    const behind = Date.now() - started - clock.now();
    if (behind > 0) clock.advance(behind);
  };
  const token = randomBytes(24).toString('base64url');
  const { certPem, keyPem } = selfSignedCertificate({ hosts: ['localhost', '127.0.0.1', '::1'] });
  const server: Server = createServer({ cert: certPem, key: keyPem }, memoryRequestHandler(memory.server, { token, beforeRequest: followWallClock }));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // Loaded here: a memory-tier test that never serves does not load the control plane's identities.
  const { kubeConfigFor } = await import('../kubeconfig.js');
  const kubeConfig = () => kubeConfigFor({ server: url, caPem: certPem, user: 'opgen-dev', token });
  return {
    memory,
    url,
    token,
    caPem: certPem,
    kubeConfig,
    writeKubeConfig: (path) => writeKubeConfig(kubeConfig(), path),
    async close() {
      memory.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
