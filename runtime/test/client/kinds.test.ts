import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { apiVersionOf, type Kind } from '../../src/api/kind.js';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import type { KubeObject } from '../../src/object.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';

let cp: ControlPlane;
let client: Client;

beforeAll(async () => {
  cp = await startControlPlane();
  client = createClient(cp.kubeConfig);
});

afterAll(async () => {
  await cp?.stop();
});

describe('built-in kinds', () => {
  const handles = Object.entries(kinds) as [string, Kind<KubeObject>][];

  it.each(handles)('%s addresses a resource the API server serves', async (name, kind) => {
    const objects = await client.list(kind, kind.namespaced ? { namespace: 'default' } : {});
    expect(Array.isArray(objects)).toBe(true);
    expect(kind.kind).toBe(name);
  });

  it('covers what operators commonly own', () => {
    expect(handles.map(([name]) => name)).toEqual(
      expect.arrayContaining(['Pod', 'Service', 'Deployment', 'StatefulSet', 'PersistentVolumeClaim', 'ConfigMap', 'Secret', 'Job', 'CronJob', 'Lease', 'Event', 'Namespace', 'ServiceAccount']),
    );
    expect(apiVersionOf(kinds.Event)).toBe('events.k8s.io/v1');
  });

  it('types objects as the API server sends them: timestamps as strings, fields under their JSON names', () => {
    expectTypeOf<NonNullable<NonNullable<kinds.Pod['metadata']>['creationTimestamp']>>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<NonNullable<kinds.Lease['spec']>['renewTime']>>().toEqualTypeOf<string>();
    type Schema = NonNullable<NonNullable<kinds.CustomResourceDefinition['spec']['versions'][number]['schema']>['openAPIV3Schema']>;
    expectTypeOf<Schema>().toHaveProperty('x-kubernetes-preserve-unknown-fields');
    expectTypeOf<Schema>().toHaveProperty('$ref');
    expectTypeOf<Schema>().toHaveProperty('default');
    expectTypeOf<kinds.CustomResourceDefinition['spec']['versions'][number]>().toHaveProperty('schema');
    type IngressRule = NonNullable<NonNullable<kinds.NetworkPolicy['spec']>['ingress']>[number];
    expectTypeOf<IngressRule>().toHaveProperty('from');
  });
});
