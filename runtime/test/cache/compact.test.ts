import { describe, expect, it } from 'vitest';
import { createCompactor } from '../../src/cache/compact.js';
import type { KubeObject } from '../../src/object.js';

/** A freshly parsed object, as the informer gets it from the wire (no shared parts). */
function parsed(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return JSON.parse(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        namespace: 'team-a',
        uid: `uid-${name}`,
        resourceVersion: '7',
        creationTimestamp: '2026-11-23T22:50:00Z',
        labels: { 'app.kubernetes.io/managed-by': 'opgen', tier: 'db' },
        ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'owner-uid', controller: true, blockOwnerDeletion: true }],
        finalizers: ['example.com/cleanup'],
        ...extra,
      },
    }),
  ) as KubeObject;
}

describe('compacting cached objects', () => {
  it('metadata-only: equal labels, annotations, owner references and finalizers become one frozen value; the values are unchanged', () => {
    const compact = createCompactor({ share: true });
    const a = compact(parsed('a', { annotations: { note: 'same' } }));
    const b = compact(parsed('b', { annotations: { note: 'same' } }));
    expect(b).toEqual(parsed('b', { annotations: { note: 'same' } }));
    expect(b.metadata!.labels).toBe(a.metadata!.labels);
    expect(b.metadata!.annotations).toBe(a.metadata!.annotations);
    expect(b.metadata!.ownerReferences).toBe(a.metadata!.ownerReferences);
    expect(b.metadata!.finalizers).toBe(a.metadata!.finalizers);
    // Sharing is only safe because nothing can change them: a handler that tries gets a TypeError.
    expect(Object.isFrozen(b) && Object.isFrozen(b.metadata) && Object.isFrozen(b.metadata!.ownerReferences![0])).toBe(true);
    expect(() => {
      b.metadata!.labels!.tier = 'web';
    }).toThrow(TypeError);
    expect(a.metadata!.labels!.tier).toBe('db');
  });

  it('metadata-only: objects whose labels differ keep their own, and absent fields stay absent', () => {
    const compact = createCompactor({ share: true });
    const a = compact(parsed('a'));
    const c = compact(parsed('c', { labels: { tier: 'web' } }));
    expect(c.metadata!.labels).toEqual({ tier: 'web' });
    expect(a.metadata!.labels).toEqual({ 'app.kubernetes.io/managed-by': 'opgen', tier: 'db' });
    const bare = compact({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', resourceVersion: '1' } });
    expect(Object.keys(bare.metadata!)).toEqual(['name', 'resourceVersion']);
  });

  it('whole objects: values unchanged, nothing shared or frozen, so a handler may still edit its own object', () => {
    const compact = createCompactor({ share: false });
    const a = compact(parsed('a'));
    const b = compact(parsed('b'));
    expect(b).toEqual(parsed('b'));
    expect(b.metadata!.labels).not.toBe(a.metadata!.labels);
    expect(Object.isFrozen(b) || Object.isFrozen(b.metadata!.labels)).toBe(false);
    b.metadata!.labels!.tier = 'web';
    expect(a.metadata!.labels!.tier).toBe('db');
  });

  it('leaves an object a transform froze as it is', () => {
    const frozen = Object.freeze({ ...parsed('a'), metadata: Object.freeze({ ...parsed('a').metadata }) });
    expect(createCompactor({ share: false })(frozen)).toBe(frozen);
    expect(createCompactor({ share: true })(frozen)).toEqual(parsed('a'));
  });
});
