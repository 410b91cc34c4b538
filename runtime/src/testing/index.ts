/**
 * `@opgen/runtime/testing`: the two tiers a controller test runs on. The memory cluster
 * (`startTestCluster()`, an API server inside the test's process on a fake clock that
 * `runUntilIdle()` drives) for tests in milliseconds; and a real Kubernetes control plane
 * (etcd, kube-apiserver and optionally kube-controller-manager on loopback), like
 * controller-runtime's envtest, for what only the real one shows (`OPGEN_TEST_TIER=controlplane`
 * switches a test file to it), plus helpers to install CRDs, and for end-to-end tests
 * to build an operator, run it as a process and drive the cluster with kubectl.
 *
 * Binaries come from `KUBEBUILDER_ASSETS` (e.g. `export KUBEBUILDER_ASSETS=$(setup-envtest
 * use 1.36.3 -p path)`), else from opgen's cache or setup-envtest's, else they are downloaded
 * and verified as setup-envtest does (see `@opgen/runtime/downloads`), else built with Go.
 *
 * @example
 * import { installCRDs, startControlPlane } from '@opgen/runtime/testing';
 *
 * const cp = await startControlPlane();
 * try {
 *   await installCRDs(cp.kubeConfig, 'config/crd/bases');
 *   // ... createManager({ kubeConfig: cp.kubeConfig }) and the test
 * } finally {
 *   await cp.stop();
 * }
 *
 * @module
 */
export type { ControlPlane, ControlPlaneOptions } from './controlplane.js';
export { startControlPlane } from './start-control-plane.js';
// Time a test drives, a single reconcile outside the queue.
export { createFakeClock, type FakeClock, type FakeClockOptions } from './memory/clock.js';
export type { RunUntilIdleOptions } from './memory/idle.js';
export { reconcileOnce } from './memory/reconcile-once.js';
export type { Clock, ClockTimer } from '../time/clock.js';
export type { Identity } from './identities.js';
export { binariesCacheDir, resolveBinaries, KUBERNETES_VERSION, type ControlPlaneBinaries } from './binaries.js';
export { installCRDs, readCRDs, waitForCRDsEstablished, FIELD_MANAGER } from './crds.js';
export { applyObjects } from './apply-objects.js';
export { kubeConfigOfContext, writeKubeConfig } from './kubeconfig-files.js';
export { kubectlFor, type Kubectl, type KubectlOptions, type KubectlResult } from './kubectl.js';
export { buildProject } from './build.js';
export { startOperator, type Operator, type OperatorOptions, type ExitStatus, type LogMatch } from './operator.js';
export type { LogLine } from './log-lines.js';
// A test that runs an operator or a server of its own beside the control plane needs ports.
export { freePort } from './ports.js';
// Waiting for what a controller does, and checking what it must not do.
export { eventually, consistently, type EventuallyOptions, type ConsistentlyOptions, type Probe } from './poll.js';
export { installWebhooks, type InstallWebhooksOptions } from './webhooks.js';
// A test's webhook server needs a certificate the API server can be told to trust.
export { selfSignedCertificate, type CertificateKeyPair, type SelfSignedOptions } from '../certs/self-signed-cert.js';
// The in-memory API server: controller tests in milliseconds, the API server's semantics.
export { createMemoryCluster, type MemoryCluster, type MemoryClusterOptions, type SeedObject } from './memory/cluster.js';
// The memory cluster over HTTPS on loopback, for kubectl and operators run as processes (opgen dev).
export { serveMemoryCluster, type ServedMemoryCluster, type ServeMemoryClusterOptions } from './memory/serve.js';
// One test file on either tier: OPGEN_TEST_TIER=controlplane switches it to the real one.
export { startTestCluster, type TestCluster, type TestClusterOptions, type TestTier } from './tier.js';
