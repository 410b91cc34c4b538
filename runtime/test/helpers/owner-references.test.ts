import { describe, expect, it } from 'vitest';
import { kinds } from '../../src/client/index.js';
import { AlreadyOwnedError, controllerOf, setControllerReference, setOwnerReference } from '../../src/helpers/index.js';
import { Widget } from '../client/support.js';

const owner = { apiVersion: 'test.opgen.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'a', uid: 'uid-w' }, spec: { size: 1 } };

describe('setControllerReference', () => {
  it('adds a controller reference that blocks owner deletion', () => {
    const pvc: kinds.PersistentVolumeClaim = { metadata: { name: 'data', namespace: 'a' } };
    expect(setControllerReference(owner, Widget, pvc)).toBe(pvc);
    expect(pvc.metadata?.ownerReferences).toEqual([
      { apiVersion: 'test.opgen.dev/v1', kind: 'Widget', name: 'w', uid: 'uid-w', controller: true, blockOwnerDeletion: true },
    ]);
    expect(controllerOf(pvc)?.name).toBe('w');
  });

  it('is idempotent and keeps other owners', () => {
    const pvc: kinds.PersistentVolumeClaim = {
      metadata: { name: 'data', namespace: 'a', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'uid-c' }] },
    };
    setControllerReference(owner, Widget, pvc);
    setControllerReference({ ...owner, metadata: { ...owner.metadata, uid: 'uid-w2' } }, Widget, pvc);
    expect(pvc.metadata?.ownerReferences?.map((r) => `${r.kind}/${r.name}/${r.uid}`)).toEqual(['ConfigMap/c/uid-c', 'Widget/w/uid-w2']);
  });

  it('refuses when another controller owns the object', () => {
    const pvc: kinds.PersistentVolumeClaim = { metadata: { name: 'data', namespace: 'a' } };
    setControllerReference({ ...owner, metadata: { ...owner.metadata, name: 'first' } }, Widget, pvc);
    const error = (() => {
      try {
        setControllerReference(owner, Widget, pvc);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AlreadyOwnedError);
    expect((error as AlreadyOwnedError).message).toBe('object a/data is already controlled by Widget "first": Widget "w" may not take it over');
    expect((error as AlreadyOwnedError).owner.name).toBe('first');
    expect((error as AlreadyOwnedError).claimant?.name).toBe('w');
  });

  it('refuses references the garbage collector would not honour', () => {
    expect(() => setControllerReference(owner, Widget, { metadata: { name: 'x', namespace: 'b' } })).toThrow(
      'cannot be owned by Widget a/w: owner references across namespaces are not allowed',
    );
    expect(() => setControllerReference(owner, Widget, { kind: 'PersistentVolume', metadata: { name: 'pv' } })).toThrow(
      'PersistentVolume pv is cluster-scoped and cannot be owned by namespaced Widget a/w',
    );
    expect(() => setControllerReference({ metadata: { name: 'new' } }, Widget, { metadata: { name: 'x' } })).toThrow(
      'owner Widget "new" has no uid',
    );
  });
});

describe('setOwnerReference', () => {
  it('adds a plain owner, and keeps controller flags of an existing reference to the same owner', () => {
    const pvc: kinds.PersistentVolumeClaim = { metadata: { name: 'data', namespace: 'a' } };
    setOwnerReference(owner, Widget, pvc);
    expect(pvc.metadata?.ownerReferences).toEqual([{ apiVersion: 'test.opgen.dev/v1', kind: 'Widget', name: 'w', uid: 'uid-w' }]);
    expect(controllerOf(pvc)).toBeUndefined();
    setControllerReference(owner, Widget, pvc);
    setOwnerReference(owner, Widget, pvc);
    expect(pvc.metadata?.ownerReferences).toEqual([
      { apiVersion: 'test.opgen.dev/v1', kind: 'Widget', name: 'w', uid: 'uid-w', controller: true, blockOwnerDeletion: true },
    ]);
  });
});
