import { createRequire } from 'node:module';

type ClientNode = typeof import('@kubernetes/client-node');

let loaded: ClientNode | undefined;

/**
 * `@kubernetes/client-node`, loaded on first use: importing it reads some 800 modules
 * (most of a second) and holds some 25 MB of heap, which an operator needs only for what
 * opgen does not implement itself: a kubeconfig's `auth-provider` or `proxy-url` (see
 * `credentialsFor`), and the control-plane test harness. Synchronous because building a
 * transport is (Node ≥ 20.19 can `require()` an ES module without top-level await, as
 * this one is).
 *
 * @example
 * const kubeConfig = new (clientNode().KubeConfig)();
 */
export function clientNode(): ClientNode {
  return (loaded ??= createRequire(import.meta.url)('@kubernetes/client-node') as ClientNode);
}
