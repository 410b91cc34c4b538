import { describe, expect, it } from 'vitest';
import type { EventHandler } from '../../src/cache/index.js';
import { createReflector } from '../../src/cache/reflector.js';
import { createStore } from '../../src/cache/store.js';
import type { KubeObject } from '../../src/object.js';
import { recordEvents } from './support.js';

type Obj = KubeObject & { data?: Record<string, string> };
const obj = (name: string, rv: string, data: Record<string, string> = {}): Obj => ({ metadata: { name, namespace: 'ns', resourceVersion: rv }, data });

function reflectorWithRecorder() {
  const store = createStore<Obj>();
  const { handler, events } = recordEvents<Obj>((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`);
  const handlers: EventHandler<Obj>[] = [handler];
  const reflector = createReflector<Obj>(
    store,
    (o) => ({ ...o, data: { kept: o.data?.kept ?? '' } }),
    (deliver) => handlers.forEach(deliver),
  );
  return { store, events, reflector };
}

describe('reflector (watcher output → store → handlers)', () => {
  it('marks the adds of the first list as the initial list, and no later add', () => {
    const store = createStore<Obj>();
    const adds: string[] = [];
    const reflector = createReflector<Obj>(store, (o) => o, (deliver) => deliver({ add: (o, initial) => adds.push(`${o.metadata?.name}${initial ? ' (initial)' : ''}`) }));
    reflector.apply({ type: 'listed', items: [obj('a', '1'), obj('b', '1')], resourceVersion: '1' });
    reflector.apply({ type: 'event', event: { type: 'ADDED', object: obj('c', '2') } });
    reflector.apply({ type: 'listed', items: [obj('a', '1'), obj('b', '1'), obj('c', '2'), obj('missed', '3')], resourceVersion: '3' });
    expect(adds).toEqual(['a (initial)', 'b (initial)', 'c', 'missed']);
  });

  it('stores prepared objects and emits each change once, in watch order', () => {
    const { store, events, reflector } = reflectorWithRecorder();
    reflector.apply({ type: 'listed', items: [obj('a', '1', { kept: 'x', dropped: 'y' }), obj('b', '1')], resourceVersion: '1' });
    reflector.apply({ type: 'event', event: { type: 'MODIFIED', object: obj('a', '2') } });
    reflector.apply({ type: 'event', event: { type: 'MODIFIED', object: obj('a', '2') } });
    reflector.apply({ type: 'event', event: { type: 'BOOKMARK', object: { metadata: { resourceVersion: '3' } } } });
    reflector.apply({ type: 'event', event: { type: 'DELETED', object: obj('b', '4') } });
    reflector.apply({ type: 'event', event: { type: 'DELETED', object: obj('gone', '5') } });
    expect(events).toEqual(['add a@1', 'add b@1', 'update a@1 -> a@2', 'delete b@4']);
    expect(store.get('ns/a')?.data).toEqual({ kept: '' });
    expect(store.size).toBe(1);
  });

  it('a relist replaces the content and emits only the difference, deletions included', () => {
    const { store, events, reflector } = reflectorWithRecorder();
    reflector.apply({ type: 'listed', items: [obj('same', '1'), obj('changed', '1'), obj('vanished', '1')], resourceVersion: '1' });
    const same = store.get('ns/same');
    events.length = 0;
    const diff = reflector.apply({ type: 'listed', items: [obj('same', '1'), obj('changed', '7'), obj('new', '8')], resourceVersion: '9' });
    expect(events.sort()).toEqual(['add new@8', 'delete vanished@1', 'update changed@1 -> changed@7']);
    expect(diff).toMatchObject({ unchanged: 1 });
    expect(store.get('ns/same')).toBe(same);
    expect([...store.keys()].sort()).toEqual(['ns/changed', 'ns/new', 'ns/same']);
  });

  it('a streaming list stores and announces each new or changed object as it arrives, and removes what it did not name at its end', () => {
    const { store, events, reflector } = reflectorWithRecorder();
    reflector.apply({ type: 'streamStarted' });
    reflector.apply({ type: 'streamed', object: obj('same', '1') });
    reflector.apply({ type: 'streamed', object: obj('changed', '1') });
    reflector.apply({ type: 'streamed', object: obj('vanished', '1') });
    expect(reflector.apply({ type: 'streamEnded', resourceVersion: '1' })).toMatchObject({ unchanged: 0 });
    events.length = 0;
    reflector.apply({ type: 'streamStarted' });
    reflector.apply({ type: 'streamed', object: obj('new', '8') });
    // Heard before the stream ends: a shard taking over objects does not wait for its whole share.
    expect(events).toEqual(['add new@8']);
    expect(store.get('ns/new')).toBeDefined();
    reflector.apply({ type: 'streamed', object: obj('same', '1') });
    reflector.apply({ type: 'streamed', object: obj('changed', '7') });
    expect(events).toEqual(['add new@8', 'update changed@1 -> changed@7']);
    expect(store.get('ns/vanished')).toBeDefined();
    const diff = reflector.apply({ type: 'streamEnded', resourceVersion: '9' });
    expect(events).toEqual(['add new@8', 'update changed@1 -> changed@7', 'delete vanished@1']);
    expect(diff).toMatchObject({ unchanged: 1, added: [{ metadata: { name: 'new' } }], deleted: [{ metadata: { name: 'vanished' } }] });
    expect([...store.keys()].sort()).toEqual(['ns/changed', 'ns/new', 'ns/same']);
  });

  it('marks the objects of the first streaming list as the initial list; a stream broken off is judged by the next one', () => {
    const store = createStore<Obj>();
    const seen: string[] = [];
    const reflector = createReflector<Obj>(store, (o) => o, (deliver) => deliver({ add: (o, initial) => seen.push(`add ${o.metadata?.name}${initial ? ' (initial)' : ''}`), delete: (o) => seen.push(`delete ${o.metadata?.name}`) }));
    reflector.apply({ type: 'streamStarted' });
    reflector.apply({ type: 'streamed', object: obj('a', '1') });
    reflector.apply({ type: 'streamed', object: obj('gone-before-retry', '1') });
    // The stream broke off; the retry's snapshot no longer has one of them.
    reflector.apply({ type: 'streamStarted' });
    reflector.apply({ type: 'streamed', object: obj('a', '1') });
    reflector.apply({ type: 'streamed', object: obj('b', '2') });
    reflector.apply({ type: 'streamEnded', resourceVersion: '2' });
    reflector.apply({ type: 'streamStarted' });
    reflector.apply({ type: 'streamed', object: obj('c', '3') });
    expect(seen).toEqual(['add a (initial)', 'add gone-before-retry (initial)', 'add b (initial)', 'delete gone-before-retry', 'add c']);
    expect(store.get('ns/gone-before-retry')).toBeUndefined();
  });
});
