import { describe, expect, it } from 'vitest';
import { defineKind } from '../../src/api/kind.js';
import { enqueueControllerOwner, enqueueMapped, enqueueObject } from '../../src/controller/handlers.js';
import type { DeepReadonly, KubeObject } from '../../src/object.js';

const DemoVolume = defineKind<KubeObject>({ group: 'storage.example.com', version: 'v1', kind: 'DemoVolume', plural: 'demovolumes', namespaced: true });
const ClusterThing = defineKind<KubeObject>({ group: 'example.com', version: 'v1', kind: 'Thing', plural: 'things', namespaced: false });

function pvc(ownerReferences: NonNullable<KubeObject['metadata']>['ownerReferences']): KubeObject {
  return { metadata: { name: 'claim', namespace: 'ns', ownerReferences } };
}
const ref = (over: Partial<{ apiVersion: string; kind: string; name: string; controller: boolean }>) => ({
  apiVersion: 'storage.example.com/v1',
  kind: 'DemoVolume',
  name: 'vol',
  uid: 'u',
  controller: true,
  ...over,
});

describe('event to request mapping', () => {
  it('For enqueues the object itself, namespaced or not', () => {
    const map = enqueueObject();
    expect(map({ type: 'create', object: { metadata: { name: 'a', namespace: 'ns' } } })).toEqual([{ namespace: 'ns', name: 'a' }]);
    expect(map({ type: 'create', object: { metadata: { name: 'node-1' } } })).toEqual([{ name: 'node-1' }]);
  });

  it('Owns enqueues the controller owner of the for kind in the object namespace', () => {
    const map = enqueueControllerOwner(DemoVolume);
    expect(map({ type: 'create', object: pvc([ref({})]) })).toEqual([{ namespace: 'ns', name: 'vol' }]);
  });

  it('Owns matches the owner by group and kind whatever its version', () => {
    const map = enqueueControllerOwner(DemoVolume);
    expect(map({ type: 'create', object: pvc([ref({ apiVersion: 'storage.example.com/v1beta1' })]) })).toEqual([{ namespace: 'ns', name: 'vol' }]);
  });

  it('Owns ignores non-controller owners and owners of another kind or group', () => {
    const map = enqueueControllerOwner(DemoVolume);
    expect(map({ type: 'create', object: pvc([ref({ controller: false })]) })).toEqual([]);
    expect(map({ type: 'create', object: pvc([ref({ kind: 'Other' })]) })).toEqual([]);
    expect(map({ type: 'create', object: pvc([ref({ apiVersion: 'other.example.com/v1' })]) })).toEqual([]);
    expect(map({ type: 'create', object: pvc(undefined) })).toEqual([]);
  });

  it('Owns enqueues both owners when an update moves the object to another owner', () => {
    const map = enqueueControllerOwner(DemoVolume);
    const requests = map({ type: 'update', oldObject: pvc([ref({ name: 'old' })]), object: pvc([ref({ name: 'new' })]) });
    expect(requests).toEqual([
      { namespace: 'ns', name: 'new' },
      { namespace: 'ns', name: 'old' },
    ]);
  });

  it('Owns enqueues a cluster-scoped owner without a namespace', () => {
    const map = enqueueControllerOwner(ClusterThing);
    const object = pvc([{ apiVersion: 'example.com/v1', kind: 'Thing', name: 'cluster-wide', uid: 'u', controller: true }]);
    expect(map({ type: 'delete', object })).toEqual([{ name: 'cluster-wide' }]);
  });

  it('Watches enqueues what the map function returns, for old and new objects on update', () => {
    const map = enqueueMapped((o: DeepReadonly<KubeObject>) => [{ namespace: 'ns', name: `for-${o.metadata!.name}` }]);
    expect(map({ type: 'update', oldObject: { metadata: { name: 'a' } }, object: { metadata: { name: 'b' } } })).toEqual([
      { namespace: 'ns', name: 'for-b' },
      { namespace: 'ns', name: 'for-a' },
    ]);
  });
});
