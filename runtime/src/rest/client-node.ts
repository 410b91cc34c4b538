import { createRequire } from 'node:module';

type ClientNode = typeof import('@kubernetes/client-node');

let loaded: ClientNode | undefined;

/**
 * `@kubernetes/client-node`, loaded on first use: importing it reads some 800 modules
 * (most of a second), which a test on the memory cluster, given its connection rather than
 * a kubeconfig, never needs. Synchronous because `loadKubeConfig` is (Node ≥ 20.19 can
 * `require()` an ES module without top-level await, as this one is).
 *
 * @example
 * const kubeConfig = new (clientNode().KubeConfig)();
 */
export function clientNode(): ClientNode {
  return (loaded ??= createRequire(import.meta.url)('@kubernetes/client-node') as ClientNode);
}
