import { setTimeout as sleep } from 'node:timers/promises';
import { startControlPlane, type ControlPlane } from '../../../src/testing/index.js';
import { createTransport, type Transport } from '../../../src/rest/transport.js';
import { REAL_PATIENCE, createNamespace, runScenario, type Outcome } from './run.js';
import type { Scenario } from './scenario.js';

/** Scenarios run this many at a time on the real control plane: they wait on watches and the garbage collector more than on the CPU. */
const PARALLEL = 8;

// The claim protection controller lifts the finalizer the API server's admission puts on every PVC.
const KEPT_CONTROLLERS = new Set(['garbage-collector-controller', 'namespace-controller', 'serviceaccount-controller', 'persistentvolumeclaim-protection-controller']);
/** kube-controller-manager 1.36's controllers (its --help), less the kept ones. */
const OTHER_CONTROLLERS = [
  'certificatesigningrequest-approving-controller', 'certificatesigningrequest-cleaner-controller', 'certificatesigningrequest-signing-controller',
  'cloud-node-lifecycle-controller', 'clusterrole-aggregation-controller', 'cronjob-controller', 'daemonset-controller', 'deployment-controller',
  'device-taint-eviction-controller', 'disruption-controller', 'endpoints-controller', 'endpointslice-controller', 'endpointslice-mirroring-controller',
  'ephemeral-volume-controller', 'horizontal-pod-autoscaler-controller', 'job-controller', 'kube-apiserver-serving-clustertrustbundle-publisher-controller',
  'legacy-serviceaccount-token-cleaner-controller', 'node-ipam-controller', 'node-lifecycle-controller', 'node-route-controller',
  'persistentvolume-attach-detach-controller', 'persistentvolume-binder-controller', 'persistentvolume-expander-controller',
  'persistentvolume-protection-controller', 'persistentvolumeclaim-protection-controller', 'pod-garbage-collector-controller',
  'podcertificaterequest-cleaner-controller', 'podgroup-protection-controller', 'replicaset-controller', 'replicationcontroller-controller',
  'resourceclaim-controller', 'resourcepoolstatusrequest-controller', 'resourcequota-controller', 'root-ca-certificate-publisher-controller',
  'service-cidr-controller', 'service-lb-controller', 'serviceaccount-token-controller', 'statefulset-controller',
  'storage-version-migrator-controller', 'storageversion-garbage-collector-controller', 'taint-eviction-controller', 'ttl-after-finished-controller',
  'ttl-controller', 'validatingadmissionpolicy-status-controller', 'volumeattributesclass-protection-controller',
].filter((name) => !KEPT_CONTROLLERS.has(name));

export interface RealSide {
  /** Absent when the recordings were replayed from a file. */
  controlPlane: ControlPlane | undefined;
  /** Each scenario's recording, by name; the error when it could not run at all. */
  outcomes: Map<string, Outcome[] | Error>;
  /** How long starting the control plane, installing the CRDs and running every scenario took. */
  timings: { startMs: number; crdsMs: number; scenariosMs: number };
}

/**
 * Runs every scenario once against one real control plane (kube-apiserver 1.36.3 and
 * kube-controller-manager, for garbage collection and namespace deletion), each in its own
 * namespace, `PARALLEL` at a time.
 */
export async function runRealSide(scenarios: Array<{ scenario: Scenario; namespace: string }>, crds: Array<Record<string, unknown>>): Promise<RealSide> {
  let started = performance.now();
  const controlPlane = await startControlPlane({
    controllerManager: true,
    // Only the controllers the memory cluster stands in for, and the ServiceAccount one,
    // without which no Pod can be created: the others (root CA publisher, Deployment,
    // ReplicaSet, Job...) would write to the scenarios' objects while they run.
    // (The flag's values add up: the harness's `*` stays, and each other controller is taken away.)
    extraArgs: { kubeControllerManager: [`--controllers=${OTHER_CONTROLLERS.map((name) => `-${name}`).join(',')}`] },
  });
  const startMs = performance.now() - started;
  try {
    const transport = createTransport(controlPlane.kubeConfig);
    started = performance.now();
    await installCrds(transport, crds);
    const crdsMs = performance.now() - started;
    started = performance.now();
    const outcomes = new Map<string, Outcome[] | Error>();
    const queue = [...scenarios];
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { scenario, namespace } = next;
        try {
          if (!scenario.noNamespace) await createNamespace(transport, namespace);
          outcomes.set(scenario.name, await runScenario(transport, scenario, namespace, REAL_PATIENCE));
        } catch (error) {
          outcomes.set(scenario.name, error as Error);
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    return { controlPlane, outcomes, timings: { startMs, crdsMs, scenariosMs: performance.now() - started } };
  } catch (error) {
    await controlPlane.stop();
    throw error;
  }
}

/** Creates the CRDs and waits until each is Established (served). */
export async function installCrds(transport: Transport, crds: Array<Record<string, unknown>>): Promise<void> {
  const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  await Promise.all(crds.map((crd) => transport.request({ method: 'POST', path, body: crd })));
  const deadline = Date.now() + 60_000;
  for (const crd of crds) {
    const name = (crd.metadata as { name: string }).name;
    for (;;) {
      const live = await transport.request<{ status?: { conditions?: Array<{ type: string; status: string }> } }>({ method: 'GET', path: `${path}/${name}` });
      if (live.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established within 60 s`);
      await sleep(100);
    }
  }
  // Discovery and the CRD handler learn of a new CRD a moment after it is Established.
  await sleep(2_000);
}
