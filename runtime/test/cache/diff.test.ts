import { describe, expect, it } from 'vitest';
import { diffRelist } from '../../src/cache/diff.js';
import { createStore } from '../../src/cache/store.js';
import type { KubeObject } from '../../src/object.js';

const object = (name: string, resourceVersion: string): KubeObject => ({ metadata: { namespace: 'n', name, resourceVersion } });

describe('diffRelist', () => {
  it('reports adds, updates by resourceVersion, and deletions the watch missed', () => {
    const store = createStore<KubeObject>();
    const same = object('same', '5');
    const old = object('changed', '6');
    const gone = object('gone', '7');
    for (const o of [same, old, gone]) store.put(o);
    const fresh = object('changed', '9');
    const added = object('added', '8');

    const diff = diffRelist(store, [object('same', '5'), fresh, added]);
    expect(diff.added).toEqual([added]);
    expect(diff.updated).toEqual([[old, fresh]]);
    expect(diff.deleted).toEqual([gone]);
    expect(diff.unchanged).toBe(1);
  });

  it('is all adds on the first list and all deletes on an empty one', () => {
    const store = createStore<KubeObject>();
    expect(diffRelist(store, [object('a', '1')]).added).toHaveLength(1);
    store.put(object('a', '1'));
    store.put(object('b', '1'));
    expect(diffRelist(store, []).deleted.map((o) => o.metadata?.name)).toEqual(['a', 'b']);
  });
});
