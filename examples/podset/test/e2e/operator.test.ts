import { fileURLToPath } from 'node:url';
import { buildProject, kubectlFor, startControlPlane, startOperator, type ControlPlane, type Kubectl, type Operator } from '@opgen/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// The operator as a user runs it: built, started as `node dist/main.js` against a real API
// server with kube-controller-manager (garbage collector), and driven only through the API
// server with kubectl. `npm run deploy`'s manifests are applied and the process runs as the
// manager's ServiceAccount, so the generated RBAC is what it gets. There is no scheduler or
// kubelet: Pods stay Pending, and the manager's own Deployment never runs.
const project = fileURLToPath(new URL('../..', import.meta.url));
const poll = { timeout: 30_000, interval: 250 };

let controlPlane: ControlPlane | undefined;
let operator: Operator | undefined;
let kubectl: Kubectl;

beforeAll(async () => {
  [controlPlane] = await Promise.all([startControlPlane({ controllerManager: true }), buildProject(project)]);
  kubectl = kubectlFor(controlPlane, { cwd: project });
  await kubectl(['apply', '--server-side', '-k', 'config/default']);
  await kubectl(['wait', '--for=condition=Established', '--timeout=30s', 'crd/podsets.app.example.com']);
  const manager = await controlPlane.serviceAccountKubeConfig('podset-system', 'podset-controller-manager');
  operator = await startOperator({ dir: project, kubeconfigPath: manager.kubeconfigPath });
}, 180_000);

afterAll(async () => {
  await operator?.stop();
  await controlPlane?.stop();
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.error(`operator output:\n${operator?.output()}`));
});

interface Pod {
  metadata: { name: string; uid: string; ownerReferences?: Array<Record<string, unknown>> };
  spec: { containers: Array<{ image: string; command: string[] }> };
  status: { conditions?: Array<{ type: string; status: string }> };
}

const pods = (): Promise<Pod[]> => kubectl.list('pods', { selector: 'app=podset-sample' });
interface PodSetObject {
  metadata: { uid: string };
  status: { podNames?: string[]; readyReplicas?: number; availableReplicas?: number };
}

async function podSet(): Promise<PodSetObject> {
  const object = await kubectl.get<PodSetObject>('podset', 'podset-sample');
  if (!object) throw new Error('podset/podset-sample not found');
  return object;
}

/** The Pods' names, once there are `replicas` of them and the status lists exactly those. */
async function converged(replicas: number): Promise<string[]> {
  let names: string[] = [];
  await expect.poll(async () => {
    names = (await pods()).map((pod) => pod.metadata.name).sort();
    const listed: string[] = (await podSet()).status?.podNames ?? [];
    return { pods: names.length, statusListsThem: listed.join() === names.join() };
  }, poll).toEqual({ pods: replicas, statusListsThem: true });
  return names;
}

describe('PodSet operator', { timeout: 90_000 }, () => {
  it('keeps the sample\'s 3 busybox Pods, owned by it, and lists them in its status', async () => {
    await kubectl(['apply', '-f', 'config/samples/app_v1alpha1_podset.yaml']);
    const { metadata } = await podSet();

    await converged(3);
    for (const pod of await pods()) {
      expect(pod.metadata.ownerReferences).toEqual([
        { apiVersion: 'app.example.com/v1alpha1', kind: 'PodSet', name: 'podset-sample', uid: metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
      expect(pod.spec.containers).toEqual([expect.objectContaining({ image: 'busybox', command: ['sleep', '3600'] })]);
    }
    await expect.poll(() => kubectl(['get', 'events', '--field-selector', 'involvedObject.kind=PodSet', '-o', 'jsonpath={.items[*].reason}']), poll)
      .toBe('SuccessfulCreate SuccessfulCreate SuccessfulCreate');
  });

  it('replaces a deleted Pod', async () => {
    const [deleted] = await converged(3);
    await kubectl(['delete', 'pod', deleted!]);

    await expect.poll(async () => (await pods()).some((pod) => pod.metadata.name === deleted), poll).toBe(false);
    expect(await converged(3)).not.toContain(deleted);
  });

  it('counts ready Pods in readyReplicas, the scale subresource and the Ready column', async () => {
    // The kubelet would report this; there is none, so kubectl writes the Pod's status instead.
    const ready = (await converged(3)).at(-1);
    await kubectl(['patch', 'pod', ready!, '--subresource=status', '--type=merge', '-p', JSON.stringify({
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    })]);

    await expect.poll(async () => (await podSet()).status.readyReplicas, poll).toBe(1);
    expect(await kubectl(['get', 'podset', 'podset-sample', '--subresource=scale', '-o', 'jsonpath={.spec.replicas}/{.status.replicas}'])).toBe('3/1');
    expect(await kubectl(['get', 'podset', 'podset-sample'])).toMatch(/^NAME +DESIRED +READY +AGE\npodset-sample +3 +1 +\S+\n$/);
  });

  it('follows kubectl scale down, keeping the ready Pod, and up', async () => {
    const ready = (await pods()).find((pod) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
    expect(ready).toBeDefined();

    await kubectl(['scale', 'podset', 'podset-sample', '--replicas=2']);
    expect(await converged(2)).toContain(ready!.metadata.name);

    await kubectl(['scale', 'podset', 'podset-sample', '--replicas=4']);
    await converged(4);
  });

  it('takes its Pods with it when deleted', async () => {
    await kubectl(['delete', 'podset', 'podset-sample', '--wait=false']);

    // The garbage collector starts watching a new CRD's kind at its next discovery, every 30 s.
    await expect.poll(async () => (await pods()).length, { ...poll, timeout: 60_000 }).toBe(0);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await operator!.stop()).toBe(0);
  });
});
