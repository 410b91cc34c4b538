import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { opgen } from './run.js';

// The config/ trees of the golden projects, completed by `opgen manifests`, build with
// kustomize (kubectl's) into what `npm run deploy` would apply.

const fixtures = fileURLToPath(new URL('../fixtures/scaffold/', import.meta.url));
const run = promisify(execFile);
let work: string | undefined;
afterEach(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

interface Built {
  kind: string;
  metadata: { name: string; namespace?: string };
  roleRef?: { name: string };
  rules?: unknown[];
}

async function deployed(fixture: string): Promise<{ kind: string; name: string; namespace?: string }[]> {
  return (await built(fixture)).map((object) => ({
    kind: object.kind,
    name: object.metadata.name,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
  }));
}

async function built(fixture: string): Promise<Built[]> {
  work = await mkdtemp(join(tmpdir(), 'opgen-kustomize-'));
  const dir = join(work, fixture);
  await cp(join(fixtures, fixture), dir, { recursive: true });
  const manifests = await opgen(dir, 'manifests');
  expect(manifests.stderr).toBe('');
  expect(manifests.code).toBe(0);
  for (const extra of ['config/samples', 'config/prometheus', 'config/network-policy']) {
    await run('kubectl', ['kustomize', join(dir, extra)]);
  }
  const { stdout } = await run('kubectl', ['kustomize', join(dir, 'config/default')]);
  return parseAllDocuments(stdout).map((doc) => doc.toJS() as Built);
}

describe('npm run deploy applies', () => {
  it('for the Civo project: the CRD, cluster-wide RBAC and the manager in demo-volume-operator-system', async () => {
    const objects = await deployed('civo');
    const ns = 'demo-volume-operator-system';
    expect(objects).toEqual(
      expect.arrayContaining([
        { kind: 'Namespace', name: ns },
        { kind: 'CustomResourceDefinition', name: 'demovolumes.storage.civo.com' },
        { kind: 'ServiceAccount', name: 'demo-volume-operator-controller-manager', namespace: ns },
        { kind: 'ClusterRole', name: 'demo-volume-operator-manager-role' },
        { kind: 'ClusterRoleBinding', name: 'demo-volume-operator-manager-rolebinding' },
        { kind: 'Role', name: 'demo-volume-operator-leader-election-role', namespace: ns },
        { kind: 'ClusterRole', name: 'demo-volume-operator-demovolume-editor-role' },
        { kind: 'Service', name: 'demo-volume-operator-controller-manager-metrics-service', namespace: ns },
        { kind: 'Deployment', name: 'demo-volume-operator-controller-manager', namespace: ns },
      ]),
    );
  });

  it('for the multigroup project: one CRD per group and kind, the two versions of Frigate in one', async () => {
    const crds = (await deployed('multigroup')).filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.name);
    expect(crds.sort()).toEqual(['frigates.ship.example.com', 'harbours.sea.example.com']);
  });

  it('for the namespaced project: the manager\'s permissions as a Role in its namespace only', async () => {
    const all = await built('namespaced');
    const objects = all.map((o) => ({ kind: o.kind, name: o.metadata.name, ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}) }));
    const ns = 'shop-operator-system';
    expect(objects).toEqual(
      expect.arrayContaining([
        { kind: 'Role', name: 'shop-operator-manager-role', namespace: ns },
        { kind: 'RoleBinding', name: 'shop-operator-manager-rolebinding', namespace: ns },
      ]),
    );
    expect(objects.filter((o) => o.kind === 'ClusterRole').map((o) => o.name).sort()).toEqual([
      'shop-operator-bookstore-admin-role',
      'shop-operator-bookstore-editor-role',
      'shop-operator-bookstore-viewer-role',
      'shop-operator-metrics-auth-role',
      'shop-operator-metrics-reader',
    ]);
    // Cluster-wide, the manager may only ask the API server to review scrapers' tokens and rights.
    const clusterBindings = all.filter((o) => o.kind === 'ClusterRoleBinding');
    expect(clusterBindings.map((b) => b.roleRef?.name)).toEqual(['shop-operator-metrics-auth-role']);
    expect(all.find((o) => o.kind === 'ClusterRole' && o.metadata.name === 'shop-operator-metrics-auth-role')?.rules).toEqual([
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
  });
});
