import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/cache/store.js';
import type { KubeObject } from '../../src/object.js';

function object(namespace: string | undefined, name: string, labels?: Record<string, string>, resourceVersion = '1'): KubeObject {
  return { metadata: { name, ...(namespace && { namespace }), ...(labels && { labels }), resourceVersion } };
}

const names = (list: KubeObject[]) => list.map((o) => o.metadata?.name).sort();

describe('the informer store', () => {
  it('keys objects by namespace/name and replaces on put', () => {
    const store = createStore<KubeObject>();
    const first = object('a', 'x');
    expect(store.put(first)).toBeUndefined();
    store.put(object('b', 'x'));
    store.put(object(undefined, 'x'));
    const second = object('a', 'x', undefined, '2');
    expect(store.put(second)).toBe(first);
    expect(store.get('a/x')).toBe(second);
    expect(store.get('x')?.metadata?.namespace).toBeUndefined();
    expect(store.size).toBe(3);
    expect(store.remove('b/x')?.metadata?.namespace).toBe('b');
    expect(store.remove('b/x')).toBeUndefined();
    expect(store.size).toBe(2);
  });

  it('answers namespace and label queries, and keeps the indexes right through updates and removals', () => {
    const store = createStore<KubeObject>();
    store.put(object('a', 'web', { app: 'web', tier: 'front' }));
    store.put(object('a', 'db', { app: 'db' }));
    store.put(object('b', 'web', { app: 'web', tier: 'back' }));
    expect(names(store.list({ namespace: 'a' }))).toEqual(['db', 'web']);
    expect(store.list({ labels: { app: 'web' } }).map((o) => o.metadata?.namespace).sort()).toEqual(['a', 'b']);
    expect(store.list({ labels: { app: 'web', tier: 'back' } }).map((o) => o.metadata?.namespace)).toEqual(['b']);
    expect(store.list({ namespace: 'a', labels: { tier: 'back' } })).toEqual([]);
    expect(store.list({ labels: {} })).toHaveLength(3);

    store.put(object('a', 'web', { app: 'api' }, '2'));
    expect(store.list({ labels: { app: 'web' } }).map((o) => o.metadata?.namespace)).toEqual(['b']);
    expect(names(store.list({ labels: { app: 'api' } }))).toEqual(['web']);
    expect(store.list({ labels: { tier: 'front' } })).toEqual([]);

    store.remove('a/db');
    expect(names(store.list({ namespace: 'a' }))).toEqual(['web']);
    expect(store.list({ labels: { app: 'db' } })).toEqual([]);
  });

  it('indexes with user functions, including objects present before the index', () => {
    type Owned = KubeObject & { owner?: string[] };
    const store = createStore<Owned>();
    store.put({ ...object('a', 'one'), owner: ['x', 'y'] });
    store.addIndex('owner', (o) => o.owner ?? []);
    store.put({ ...object('a', 'two'), owner: ['y'] });
    store.put({ ...object('b', 'three'), owner: ['x'] });
    expect(names(store.list({ index: { name: 'owner', value: 'x' } }))).toEqual(['one', 'three']);
    expect(names(store.list({ index: { name: 'owner', value: 'y' } }))).toEqual(['one', 'two']);
    expect(names(store.list({ namespace: 'b', index: { name: 'owner', value: 'x' } }))).toEqual(['three']);
    store.addIndex('first', (o) => (o.owner ?? []).slice(0, 1));
    expect(names(store.list({ index: [{ name: 'owner', value: 'y' }, { name: 'first', value: 'x' }] }))).toEqual(['one']);
    expect(() => store.list({ index: [{ name: 'owner', value: 'y' }, { name: 'nope', value: 'x' }] })).toThrow('no index named "nope"');

    store.put({ ...object('a', 'one', undefined, '2'), owner: ['y'] });
    expect(names(store.list({ index: { name: 'owner', value: 'x' } }))).toEqual(['three']);
    store.remove('b/three');
    expect(store.list({ index: { name: 'owner', value: 'x' } })).toEqual([]);
    expect(() => store.addIndex('owner', () => [])).toThrow('index "owner" exists already');
  });
});
