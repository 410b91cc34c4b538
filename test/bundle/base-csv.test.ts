import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanUp, opgen } from '../scaffold/run.js';
import { copyExample } from './project.js';

// operator-sdk users lose what they wrote in the CSV when they regenerate (operator-sdk issues
// 5000 and 6590). opgen keeps it in config/manifests/bases and never writes that file again.

let dir: string | undefined;
afterEach(async () => {
  if (dir) await cleanUp(dir);
  dir = undefined;
});

const base = 'config/manifests/bases/podset.clusterserviceversion.yaml';
const csvPath = 'bundle/manifests/podset.clusterserviceversion.yaml';

describe('the base CSV', () => {
  it('keeps every field the user edited across regenerations, while generated parts follow config/', async () => {
    dir = await copyExample('podset');
    expect((await opgen(dir, 'bundle', '--version', '0.1.0')).code).toBe(0);
    const edited = parse(await readFile(join(dir, base), 'utf8'));
    edited.spec.description = 'Runs PodSets: a hand-written description.';
    edited.spec.icon = [{ base64data: 'iVBORw0KGgo=', mediatype: 'image/png' }];
    edited.spec.maintainers = [{ name: 'Ada', email: 'ada@example.com' }];
    edited.spec.minKubeVersion = '1.33.0';
    edited.spec.installModes = [{ type: 'AllNamespaces', supported: true }];
    edited.metadata.annotations.categories = 'Developer Tools';
    edited.spec.customresourcedefinitions = {
      owned: [
        {
          name: 'podsets.app.example.com',
          version: 'v1alpha1',
          kind: 'PodSet',
          displayName: 'Pod Set (busybox)',
          resources: [{ kind: 'Pod', name: 'podset-sample-*', version: 'v1' }],
          specDescriptors: [{ path: 'replicas', displayName: 'Pods', description: 'How many Pods.', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:podCount'] }],
        },
      ],
    };
    await writeFile(join(dir, base), JSON.stringify(edited));

    const again = await opgen(dir, 'bundle', '--version', '0.2.0');
    expect(again.stderr).toBe('');
    expect(again.stdout).toBe(`UPDATE ${csvPath}\n`);
    expect(JSON.parse(await readFile(join(dir, base), 'utf8'))).toEqual(edited);
    const csv = parse(await readFile(join(dir, csvPath), 'utf8'));
    expect(csv.metadata.name).toBe('podset.v0.2.0');
    expect(csv.spec.version).toBe('0.2.0');
    expect(csv.spec.description).toBe('Runs PodSets: a hand-written description.');
    expect(csv.spec.icon).toEqual(edited.spec.icon);
    expect(csv.spec.maintainers).toEqual(edited.spec.maintainers);
    expect(csv.spec.minKubeVersion).toBe('1.33.0');
    expect(csv.spec.installModes).toEqual([{ type: 'AllNamespaces', supported: true }]);
    expect(csv.metadata.annotations.categories).toBe('Developer Tools');
    const [owned] = csv.spec.customresourcedefinitions.owned;
    expect(owned.displayName).toBe('Pod Set (busybox)');
    // The description the base leaves out still comes from the kind's doc comment.
    expect(owned.description).toBe('PodSet keeps a number of busybox Pods running, like a small ReplicaSet.');
    expect(owned.resources).toEqual([{ kind: 'Pod', name: 'podset-sample-*', version: 'v1' }]);
    expect(owned.specDescriptors).toEqual([
      { path: 'replicas', displayName: 'Pods', description: 'How many Pods.', 'x-descriptors': ['urn:alm:descriptor:com.tectonic.ui:podCount'] },
    ]);
    expect(owned.statusDescriptors.map((d: { path: string }) => d.path)).toEqual(['podNames', 'readyReplicas']);
    expect(csv.spec.install.spec.deployments[0].name).toBe('podset-controller-manager');
    expect((await opgen(dir, 'bundle', 'validate')).code).toBe(0);
  });

  it('warns about a kind it describes that the project no longer has', async () => {
    dir = await copyExample('podset');
    expect((await opgen(dir, 'bundle')).code).toBe(0);
    const edited = parse(await readFile(join(dir, base), 'utf8'));
    edited.spec.customresourcedefinitions = { owned: [{ name: 'podgroups.app.example.com', version: 'v1', kind: 'PodGroup', displayName: 'Pod Group' }] };
    await writeFile(join(dir, base), JSON.stringify(edited));
    const again = await opgen(dir, 'bundle');
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(
      `${base}: warning: spec.customresourcedefinitions.owned describes podgroups.app.example.com v1, which config/default does not render: left out of the bundle\n`,
    );
    const csv = parse(await readFile(join(dir, csvPath), 'utf8'));
    expect(csv.spec.customresourcedefinitions.owned.map((o: { name: string }) => o.name)).toEqual(['podsets.app.example.com']);
  });

  it('drops a bundle file config/ no longer renders', async () => {
    dir = await copyExample('podset');
    expect((await opgen(dir, 'bundle')).code).toBe(0);
    const rbac = join(dir, 'config/rbac/kustomization.yaml');
    await writeFile(rbac, (await readFile(rbac, 'utf8')).replace('  - podset_viewer_role.yaml\n', ''));
    const again = await opgen(dir, 'bundle');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('DELETE bundle/manifests/podset-podset-viewer-role_rbac.authorization.k8s.io_v1_clusterrole.yaml\n');
    expect((await opgen(dir, 'bundle')).stdout).toBe('bundle is up to date\n');
  });
});
