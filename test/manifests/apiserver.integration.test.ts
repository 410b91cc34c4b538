import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CustomObjectsApi, KubernetesObjectApi, loadAllYaml, type KubernetesObject } from '@kubernetes/client-node';
import { installCRDs, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, opgen } from './run.js';

// What `opgen manifests` writes for the fixtures, sent to a real kube-apiserver: every CRD
// must be accepted and Established, every sample created, and the API server must enforce
// what the markers say.
const group = 'shop.example.com';
const apiVersion = `${group}/v1`;
const ns = 'default';

type Obj = KubernetesObject & Record<string, unknown>;

/** A copy of fixture `name` after `opgen manifests`. */
async function generate(name: string): Promise<string> {
  const dir = copyFixture(name);
  const run = await opgen('manifests', '--dir', dir);
  expect(run.stderr).toBe('');
  return dir;
}

/** Every object of every YAML file in `dir`. */
function documents(dir: string): Obj[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => loadAllYaml(readFileSync(join(dir, f), 'utf8')) as Obj[]);
}

describe('generated CRDs on a real API server', () => {
  let cp: ControlPlane;
  let projects: string[];
  let objects: KubernetesObjectApi;
  let custom: CustomObjectsApi;
  let installed: string[];

  beforeAll(async () => {
    projects = [await generate('demovolume'), await generate('everything')];
    cp = await startControlPlane();
    installed = await installCRDs(cp.kubeConfig, projects.map((p) => join(p, 'config/crd/bases')));
    objects = KubernetesObjectApi.makeApiClient(cp.kubeConfig);
    custom = cp.kubeConfig.makeApiClient(CustomObjectsApi);
  }, 120_000);
  afterAll(async () => {
    await cp?.stop();
    for (const dir of projects ?? []) rmSync(dir, { recursive: true, force: true });
  });

  /** The API server's message for a rejected create, or undefined when it accepted the object. */
  async function rejection(object: Obj): Promise<string | undefined> {
    try {
      await objects.create(object);
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  }

  function messageOf(error: unknown): string {
    const body = (error as { body?: unknown }).body;
    if (typeof body === 'string') {
      try {
        return (JSON.parse(body) as { message: string }).message;
      } catch {
        return body;
      }
    }
    if (body && typeof body === 'object' && 'message' in body) return String((body as { message: unknown }).message);
    return String(error);
  }

  let counter = 0;
  const widget = (spec: Record<string, unknown>): Obj => ({ apiVersion, kind: 'Widget', metadata: { name: `w${++counter}`, namespace: ns }, spec });
  const gadget = (spec: Record<string, unknown>, name = `g${++counter}`): Obj => ({
    apiVersion,
    kind: 'Gadget',
    metadata: { name, namespace: ns },
    spec: { displayName: 'Gadget', model: 'GX-1', ...spec },
  });

  it('installs every CRD and each becomes Established', () => {
    expect(installed.sort()).toEqual([
      'cogs.shop.example.com',
      'demovolumes.storage.example.com',
      'gadgets.shop.example.com',
      'sprockets.shop.example.com',
      'widgets.shop.example.com',
    ]);
  });

  it('creates every generated sample', async () => {
    const samples = projects.flatMap((p) => documents(join(p, 'config/samples')));
    expect(samples.map((s) => `${s.apiVersion} ${s.kind}`)).toEqual([
      'storage.example.com/v1 DemoVolume',
      'shop.example.com/v1 Cog',
      'shop.example.com/v1 Gadget',
      'shop.example.com/v1 Sprocket',
      'shop.example.com/v1 Widget',
      'shop.example.com/v1alpha1 Widget',
    ]);
    // Each version of a kind has a sample of the same name: create and delete them in turn.
    for (const sample of samples) {
      const object = { ...sample, metadata: { ...sample.metadata, ...(sample.kind !== 'Cog' ? { namespace: ns } : {}) } };
      expect(await rejection(object), `${sample.apiVersion} ${sample.kind}`).toBeUndefined();
      await objects.delete(object);
    }
  });

  it('accepts the generated RBAC roles and webhook configurations', async () => {
    const manifests = projects.flatMap((p) => [...documents(join(p, 'config/rbac')), ...(p.includes('everything') ? documents(join(p, 'config/webhook')) : [])]);
    expect(manifests.map((m) => m.kind)).toEqual(['ClusterRole', 'ClusterRole', 'Role', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
    for (const manifest of manifests) {
      if (manifest.kind === 'Role') await objects.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: manifest.metadata!.namespace! } });
      // A dry run: the API server validates the webhook configurations without installing
      // webhooks that would intercept the other tests' requests.
      await expect(objects.create(manifest, undefined, 'All').then(() => 'accepted', (e: unknown) => messageOf(e)), `${manifest.kind}`).resolves.toBe('accepted');
    }
  });

  it('accepts valid objects of every kind', async () => {
    expect(await rejection({ apiVersion: 'storage.example.com/v1', kind: 'DemoVolume', metadata: { name: 'dv', namespace: ns }, spec: { name: 'data', size: 1 } })).toBeUndefined();
    expect(await rejection(widget({ team: 'payments' }))).toBeUndefined();
    expect(await rejection({ apiVersion, kind: 'Cog', metadata: { name: 'c1' }, spec: { teeth: 12 } })).toBeUndefined();
    expect(
      await rejection(
        gadget({
          parts: [{ serial: 'AB1234', weight: 2.5 }],
          tags: ['a', 'b'],
          source: { url: 'https://example.com/data' },
          limits: { softCap: 5, floor: 1 },
          size: '10Gi',
          servicePort: 'http',
          retries: 9,
          ratio: 0.5,
          settings: { anything: { nested: true } },
          extra: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
        }),
      ),
    ).toBeUndefined();
  });

  it.each([
    ['DemoVolume size minimum', { apiVersion: 'storage.example.com/v1', kind: 'DemoVolume', metadata: { name: 'dv0', namespace: ns }, spec: { name: 'd', size: 0 } }, /spec\.size: Invalid value: 0: spec\.size in body should be greater than or equal to 1/],
    ['DemoVolume name minLength', { apiVersion: 'storage.example.com/v1', kind: 'DemoVolume', metadata: { name: 'dv1', namespace: ns }, spec: { name: '', size: 1 } }, /spec\.name in body should be at least 1 chars long/],
    ['required field', { apiVersion: 'storage.example.com/v1', kind: 'DemoVolume', metadata: { name: 'dv2', namespace: ns }, spec: { size: 1 } }, /spec\.name: Required value/],
  ] as [string, Obj, RegExp][])('enforces %s', async (_, object, message) => {
    expect(await rejection(object)).toMatch(message);
  });

  it.each([
    ['a field limit that narrows its type (maxLength 20 over 63)', () => widget({ team: 'a'.repeat(21) }), /spec\.team: Too long: may not be (longer|more) than 20/],
    ['the pattern of a named type', () => widget({ team: 'Not_A_Label' }), /spec\.team in body should match/],
    ['minimum', () => widget({ team: 't', replicas: -1 }), /spec\.replicas in body should be greater than or equal to 0/],
    ['a literal-union enum', () => widget({ team: 't', colour: 'purple' }), /spec\.colour: Unsupported value: "purple"/],
    ['minLength by JSDoc tag', () => gadget({ displayName: '' }), /spec\.displayName in body should be at least 1 chars long/],
    ['maxLength by JSDoc tag', () => gadget({ model: 'TOO-LONG-MODEL' }), /spec\.model: Too long/],
    ['an enum by marker', () => gadget({ pullPolicy: 'Sometimes' }), /spec\.pullPolicy: Unsupported value: "Sometimes"/],
    ['a TypeScript enum', () => gadget({ strategy: 'BlueGreen' }), /spec\.strategy: Unsupported value: "BlueGreen"/],
    ['an integer literal union', () => gadget({ priority: 5 }), /spec\.priority: Unsupported value: 5/],
    ['listType=map keys', () => gadget({ parts: [{ serial: 'AB1234', weight: 1 }, { serial: 'AB1234', weight: 2 }] }), /spec\.parts\[1\]: Duplicate value/],
    ['maxItems', () => gadget({ parts: Array.from({ length: 17 }, (_, i) => ({ serial: `AB${String(1000 + i)}`, weight: 1 })) }), /spec\.parts: Too many: 17: must have at most 16 items/],
    ['the pattern of an inherited field', () => gadget({ parts: [{ serial: 'bad', weight: 1 }] }), /spec\.parts\[0\]\.serial in body should match/],
    ['exclusiveMinimum', () => gadget({ parts: [{ serial: 'AB1234', weight: 0 }] }), /spec\.parts\[0\]\.weight in body should be greater than 0/],
    ['listType=set', () => gadget({ tags: ['a', 'a'] }), /spec\.tags\[1\]: Duplicate value: "a"/],
    ['minItems', () => gadget({ tags: [] }), /spec\.tags in body should have at least 1 items/],
    ['items:MaxLength', () => gadget({ tags: ['a-very-long-tag'] }), /spec\.tags\[0\]: Too long/],
    ['maxProperties', () => gadget({ podLabels: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, 'v'])) }), /spec\.podLabels: Too many: 9: must have at most 8 items/],
    ['ExactlyOneOf', () => gadget({ source: { url: 'https://a', configMap: 'b' } }), /exactly one of the fields in \[url configMap\] must be set/],
    ['ExactlyOneOf with none set', () => gadget({ source: {} }), /exactly one of the fields in \[url configMap\] must be set/],
    ['AtMostOneOf', () => gadget({ limits: { softCap: 1, hardCap: 2, floor: 1 } }), /at most one of the fields in \[softCap hardCap\] may be set/],
    ['AtLeastOneOf', () => gadget({ limits: { softCap: 1 } }), /at least one of the fields in \[floor minimumFloor\] must be set/],
    ['XValidation on a type', () => gadget({ limits: { softCap: 1, floor: 2 } }), /softCap must not be below floor/],
    ['XValidation on a Kind', () => gadget({}, `g${'x'.repeat(45)}`), /gadget names are at most 40 characters/],
    ['multipleOf', () => gadget({ retries: 4 }), /spec\.retries in body should be a multiple of 3/],
    ['exclusiveMaximum by JSDoc tag', () => gadget({ ratio: 1 }), /spec\.ratio in body should be less than 1/],
    ['the Quantity pattern', () => gadget({ size: 'ten gigs' }), /spec\.size in body should match/],
    ['int-or-string', () => gadget({ servicePort: true }), /spec\.servicePort: Invalid value: "boolean": spec\.servicePort in body must be of type integer,string/],
    ['a cluster-scoped kind', () => ({ apiVersion, kind: 'Cog', metadata: { name: `c${++counter}` }, spec: { teeth: 2 } }) as Obj, /spec\.teeth in body should be greater than or equal to 3/],
  ] as [string, () => Obj, RegExp][])('enforces %s', async (_, make, message) => {
    expect(await rejection(make())).toMatch(message);
  });

  it('keeps a field marked +k8s:immutable from changing', async () => {
    const created = (await objects.create(widget({ team: 't', colour: 'red' }))) as Obj;
    (created.spec as Record<string, unknown>).colour = 'blue';
    await expect(objects.replace(created).catch((e: unknown) => Promise.reject(new Error(messageOf(e))))).rejects.toThrow(/field is immutable/);
  });

  it('keeps an optional +k8s:immutable field from being removed once set, and lets it be set once', async () => {
    const unset = (await objects.create(widget({ team: 't' }))) as Obj;
    (unset.spec as Record<string, unknown>).colour = 'red';
    const set = (await objects.replace(unset)) as Obj;
    expect((set.spec as Record<string, unknown>).colour).toBe('red');
    delete (set.spec as Record<string, unknown>).colour;
    await expect(objects.replace(set).catch((e: unknown) => Promise.reject(new Error(messageOf(e))))).rejects.toThrow(/field colour is immutable once set/);
  });

  it('applies defaults on the server', async () => {
    const g = (await objects.create(gadget({}))) as Obj;
    expect(g.spec).toMatchObject({ strategy: 'Rolling', priority: 10, pullPolicy: 'IfNotPresent' });
    const w = (await objects.create(widget({ team: 't' }))) as Obj;
    expect(w.spec).toMatchObject({ replicas: 1 });
  });

  it('prunes unknown fields but keeps those marked to be preserved', async () => {
    const g = (await objects.create(gadget({ unknownField: 1, settings: { kept: { deep: 1 } }, pluginConfig: [1, 'two'] }))) as Obj;
    expect(g.spec).not.toHaveProperty('unknownField');
    expect(g.spec).toMatchObject({ settings: { kept: { deep: 1 } }, pluginConfig: [1, 'two'] });
  });

  it('serves the status subresource: status changes only through /status', async () => {
    const w = (await objects.create(widget({ team: 't' }))) as Obj;
    const name = w.metadata!.name!;
    const ignored = (await objects.replace({ ...w, status: { readyReplicas: 3 } } as Obj)) as Obj;
    expect(ignored.status).toBeUndefined();
    const updated = (await custom.replaceNamespacedCustomObjectStatus({
      group,
      version: 'v1',
      namespace: ns,
      plural: 'widgets',
      name,
      body: { ...ignored, status: { readyReplicas: 3, selector: 'app=w' } },
    })) as Obj;
    expect(updated.status).toEqual({ readyReplicas: 3, selector: 'app=w' });
  });

  it('serves the scale subresource from the paths the marker names', async () => {
    const w = (await objects.create(widget({ team: 't', replicas: 2 }))) as Obj;
    const name = w.metadata!.name!;
    await custom.replaceNamespacedCustomObjectStatus({ group, version: 'v1', namespace: ns, plural: 'widgets', name, body: { ...w, status: { readyReplicas: 1, selector: 'app=w' } } });
    const scale = (await custom.getNamespacedCustomObjectScale({ group, version: 'v1', namespace: ns, plural: 'widgets', name })) as {
      spec: { replicas: number };
      status: { replicas: number; selector: string };
    };
    expect(scale.spec.replicas).toBe(2);
    expect(scale.status).toEqual({ replicas: 1, selector: 'app=w' });
    await custom.replaceNamespacedCustomObjectScale({ group, version: 'v1', namespace: ns, plural: 'widgets', name, body: { ...scale, spec: { replicas: 5 } } });
    const after = (await objects.read({ apiVersion, kind: 'Widget', metadata: { name, namespace: ns } })) as Obj;
    expect((after.spec as { replicas: number }).replicas).toBe(5);
  });

  it('filters by a selectable field', async () => {
    await objects.create(widget({ team: 'selectable' }));
    const list = (await custom.listNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'widgets', fieldSelector: 'spec.team=selectable' })) as {
      items: Obj[];
    };
    expect(list.items.map((i) => (i.spec as { team: string }).team)).toEqual(['selectable']);
  });

  it('serves deprecated versions, and not unserved ones', async () => {
    const list = (await custom.listNamespacedCustomObject({ group, version: 'v1alpha1', namespace: ns, plural: 'widgets' })) as { items: Obj[] };
    expect(list.items.length).toBeGreaterThan(0);
    await expect(custom.listClusterCustomObject({ group, version: 'v1alpha1', plural: 'sprockets' })).rejects.toMatchObject({ code: 404 });
    await expect(custom.listClusterCustomObject({ group, version: 'v1alpha1', plural: 'cogs' })).rejects.toMatchObject({ code: 404 });
  });
});
