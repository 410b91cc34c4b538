import { describe, expect, it } from 'vitest';
import { builtinKindType, crdKindType, fieldType, resolve, zeroObject, type MapType, type TypeRef } from '../../src/testing/memory/types/index.js';

/** The type of a dotted path below a kind's root. */
function typeAt(apiVersion: string, kind: string, path: string): TypeRef {
  const { root, table } = builtinKindType(apiVersion, kind)!;
  let ref: TypeRef = root;
  for (const name of path.split('.')) {
    let resolved = resolve(ref, table);
    if (resolved.kind === 'list') resolved = resolve(resolved.type.list, table);
    if (resolved.kind !== 'map') throw new Error(`${name}: not a struct`);
    ref = fieldType(resolved.type as MapType, name)!;
  }
  return ref;
}

describe('built-in type information (from the pinned OpenAPI)', () => {
  it('gives list types, keys and strategic merge patch tags', () => {
    expect(typeAt('v1', 'Pod', 'spec.containers')).toEqual({ list: 'io.k8s.api.core.v1.Container', listType: 'map', keys: ['name'], keyDefaults: { name: '' }, patchStrategy: 'merge', patchMergeKey: 'name' });
    expect(typeAt('v1', 'Pod', 'spec.containers.args')).toEqual({ list: 'string', listType: 'atomic' });
    expect(typeAt('v1', 'Pod', 'metadata.finalizers')).toEqual({ list: 'string', listType: 'set', patchStrategy: 'merge' });
    expect(typeAt('apps/v1', 'Deployment', 'spec.strategy')).toEqual({ ref: 'io.k8s.api.apps.v1.DeploymentStrategy', patchStrategy: 'retainKeys' });
  });

  it('marks atomic maps and structs, and Quantity as one untyped value', () => {
    const { table } = builtinKindType('v1', 'Pod')!;
    expect(resolve(typeAt('v1', 'Pod', 'spec.nodeSelector'), table)).toMatchObject({ kind: 'map', atomic: true });
    expect(resolve(typeAt('apps/v1', 'Deployment', 'spec.selector'), table)).toMatchObject({ kind: 'map', atomic: true });
    expect(typeAt('v1', 'Pod', 'spec.containers.resources.limits')).toEqual({ values: 'any' });
  });

  it('knows each kind zero value: the struct fields Go always writes', () => {
    expect(zeroObject(builtinKindType('apps/v1', 'Deployment')!)).toEqual({
      metadata: {},
      spec: { strategy: {}, template: { metadata: {}, spec: { containers: null } } },
      status: {},
    });
  });
});

describe('custom resource type information (from the structural schema)', () => {
  it('reads list and map types, key defaults, preserve-unknown-fields, and puts ObjectMeta under metadata', () => {
    const type = crdKindType(
      {
        spec: {
          versions: [
            {
              name: 'v1',
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: {
                    metadata: { type: 'object' },
                    spec: {
                      type: 'object',
                      properties: {
                        ports: {
                          type: 'array',
                          'x-kubernetes-list-type': 'map',
                          'x-kubernetes-list-map-keys': ['port', 'protocol'],
                          items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
                        },
                        labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
                        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                      },
                    },
                  },
                },
              },
            },
          ],
        },
      },
      'v1',
    );
    const root = type.root as MapType;
    expect(root.fields!.metadata).toBe('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    expect(root.fields!.apiVersion).toBe('scalar');
    const spec = root.fields!.spec as MapType;
    expect(spec.fields!.ports).toMatchObject({ listType: 'map', keys: ['port', 'protocol'], keyDefaults: { protocol: 'TCP' } });
    // Scalars keep their kind: an applied configuration is type-checked against it.
    expect(spec.fields!.labels).toEqual({ values: 'string', mapType: 'atomic' });
    expect(((spec.fields!.ports as { list: MapType }).list).fields).toEqual({ port: 'numeric', protocol: 'string' });
    expect(spec.fields!.config).toEqual({ values: 'deduced' });
  });
});
