import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiextensionsV1Api, CustomObjectsApi, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';

const bin = fileURLToPath(new URL('../../bin/opgen.js', import.meta.url));

/** The built CLI as a process, with KUBECONFIG set to the control plane's. */
function opgen(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, KUBECONFIG: cp.kubeconfigPath } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// `opgen migrate-storage` against the current kubectl context (a real control plane), through
// the project's own @opgen/runtime, run as users run it: the built CLI in its own process
// (needs `npm run build`). What etcd holds is shown by the runtime's own test.

const runtime = fileURLToPath(new URL('../../runtime', import.meta.url));
const crdName = 'things.migrate.example.com';

function crd(storage: 'v1' | 'v2'): KubernetesObject {
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName },
    spec: { group: 'migrate.example.com', names: { kind: 'Thing', listKind: 'ThingList', plural: 'things', singular: 'thing' }, scope: 'Namespaced', versions: ['v1', 'v2'].map((name) => ({ name, served: true, storage: name === storage, schema })) },
  } as KubernetesObject;
}

let cp: ControlPlane;
let project: string;
beforeAll(async () => {
  cp = await startControlPlane();
  project = mkdtempSync(join(tmpdir(), 'opgen-migrate-'));
  mkdirSync(join(project, 'config/crd/bases'), { recursive: true });
  writeFileSync(join(project, 'config/crd/bases/migrate.example.com_things.yaml'), stringify(crd('v2')));
  mkdirSync(join(project, 'node_modules/@opgen'), { recursive: true });
  symlinkSync(runtime, join(project, 'node_modules/@opgen/runtime'));
}, 120_000);
afterAll(async () => {
  await cp?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

async function storedVersions(): Promise<string[]> {
  const read = await cp.kubeConfig.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name: crdName });
  return read.status?.storedVersions ?? [];
}

async function waitFor(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) if (await probe().catch(() => false)) return;
  throw new Error(`timed out waiting for ${what}`);
}

describe('opgen migrate-storage', () => {
  it("migrates the project's CRDs on the current context, then has nothing left to do", async () => {
    const objects = cp.kubeConfig.makeApiClient(KubernetesObjectApi);
    await objects.create(crd('v1'));
    const custom = cp.kubeConfig.makeApiClient(CustomObjectsApi);
    await waitFor('Things served', async () => Boolean(await custom.listNamespacedCustomObject({ group: 'migrate.example.com', version: 'v1', namespace: 'default', plural: 'things' })));
    for (let i = 0; i < 30; i++) {
      await custom.createNamespacedCustomObject({ group: 'migrate.example.com', version: 'v1', namespace: 'default', plural: 'things', body: { apiVersion: 'migrate.example.com/v1', kind: 'Thing', metadata: { name: `t${i}` }, spec: { size: i } } });
    }
    await objects.replace({ ...crd('v2'), metadata: { name: crdName, resourceVersion: (await objects.read({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: crdName } })).metadata?.resourceVersion } } as KubernetesObject);
    await waitFor('storedVersions v1, v2', async () => (await storedVersions()).length === 2);

    const unknown = opgen('migrate-storage', '--crd', 'nope.example.com', '--dir', project);
    expect(unknown).toMatchObject({ code: 1, stderr: `error: --crd nope.example.com is not a CRD of this project (its CRDs: ${crdName})\n` });

    // The current context of this kubeconfig is a server nobody answers on; --context picks the control plane.
    const real = parse(readFileSync(cp.kubeconfigPath, 'utf8')) as { 'current-context': string; contexts: { name: string; context: { user: string } }[]; clusters: unknown[] };
    const deadContext = { name: 'dead', context: { cluster: 'dead', user: real.contexts[0]!.context.user } };
    const kubeconfig = join(project, 'kubeconfig');
    writeFileSync(kubeconfig, stringify({ ...real, 'current-context': 'dead', contexts: [...real.contexts, deadContext], clusters: [...real.clusters, { name: 'dead', cluster: { server: 'https://127.0.0.1:1' } }] }));
    const on = `on ${cp.kubeConfig.getCurrentCluster()!.server} (context ${real['current-context']})`;

    const planned = opgen('migrate-storage', '--dir', project, '--dry-run', '--page-size', '20', '--kubeconfig', kubeconfig, '--context', real['current-context']);
    expect(planned).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `Counting ${crdName} ${on}\n${crdName}: 20 objects counted so far\n${crdName}: 30 objects counted so far\n${crdName}: stored as v2; would rewrite 30 objects, storedVersions v1, v2 → v2; nothing written\n`,
    });
    expect(await storedVersions(), 'a dry run writes nothing').toEqual(['v1', 'v2']);

    const run = opgen('migrate-storage', '--dir', project);
    expect(run).toMatchObject({ code: 0, stderr: '', stdout: `Migrating ${crdName} ${on}\n${crdName}: 30 objects rewritten so far\n${crdName}: stored as v2; 30 objects rewritten, storedVersions v1, v2 → v2\n` });
    expect(await storedVersions()).toEqual(['v2']);
    const again = opgen('migrate-storage', '--dir', project);
    expect(again).toMatchObject({ code: 0, stdout: `Migrating ${crdName} ${on}\n${crdName}: stored as v2; nothing to migrate\n` });
  }, 120_000);
});
