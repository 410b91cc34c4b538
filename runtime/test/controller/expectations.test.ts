import { describe, expect, it } from 'vitest';
import { defineKind } from '../../src/api/kind.js';
import type { EventHandler, Informer } from '../../src/cache/types.js';
import { createExpectations } from '../../src/controller/expectations.js';
import type { KubeObject, Stored } from '../../src/object.js';

const PodSet = defineKind({ group: 'app.example.com', version: 'v1alpha1', kind: 'PodSet', plural: 'podsets', namespaced: true });

function pod(name: string, owner: { apiVersion: string; kind: string; name: string }, extra: Record<string, unknown> = {}): Stored<KubeObject> {
  const stored = { uid: `uid-${name}`, resourceVersion: '1', generation: 1, creationTimestamp: '2026-11-23T22:00:00Z' };
  return { metadata: { name, namespace: 'ns', ...stored, ownerReferences: [{ ...owner, uid: 'u', controller: true }], ...extra } };
}
const mine = { apiVersion: 'app.example.com/v1alpha1', kind: 'PodSet', name: 'web' };

/** Just enough of an informer to hand `observe` its events: the handlers it registers. */
function informerEvents(): { informer: Informer<KubeObject>; handlers: EventHandler<KubeObject>[] } {
  const handlers: EventHandler<KubeObject>[] = [];
  const informer = { addHandler: (h: EventHandler<KubeObject>) => (handlers.push(h), () => handlers.splice(handlers.indexOf(h), 1)) } as unknown as Informer<KubeObject>;
  return { informer, handlers };
}

describe('expectations (ReplicaSet-style)', () => {
  it('blocks a key until every expected creation and deletion is observed', () => {
    const e = createExpectations();
    expect(e.satisfied('ns/web')).toBe(true);
    e.expectCreations('ns/web', 2);
    e.expectDeletions('ns/web', ['ns/old']);
    expect(e.satisfied('ns/web')).toBe(false);
    e.creationObserved('ns/web');
    e.creationObserved('ns/web');
    expect(e.satisfied('ns/web')).toBe(false);
    e.deletionObserved('ns/web', 'ns/old');
    e.deletionObserved('ns/web', 'ns/old'); // a delete event after a deletionTimestamp: counted once
    expect(e.satisfied('ns/web')).toBe(true);
    expect(e.satisfied('ns/other')).toBe(true);
  });

  it('stops blocking once the record is older than the TTL, starts over on the next expectation, and forgets a key', () => {
    let now = 0;
    const e = createExpectations({ ttlMs: 1000, now: () => now });
    e.expectCreations('ns/web', 1);
    now = 999;
    expect(e.satisfied('ns/web')).toBe(false);
    now = 1000;
    expect(e.satisfied('ns/web')).toBe(true);
    // A new expectation replaces the expired one instead of adding to its leftover.
    e.expectCreations('ns/web', 2);
    expect(e.satisfied('ns/web')).toBe(false);
    e.creationObserved('ns/web');
    e.creationObserved('ns/web');
    expect(e.satisfied('ns/web')).toBe(true);
    e.expectCreations('ns/db', 1);
    e.forget('ns/db');
    expect(e.satisfied('ns/db')).toBe(true);
  });

  it('observes adds as creations and deletes (or a deletionTimestamp) as deletions of children controlled by the owner kind', () => {
    const e = createExpectations();
    const { informer, handlers } = informerEvents();
    const stop = e.observe(informer, PodSet);
    const [handler] = handlers;
    e.expectCreations('ns/web', 1);
    handler!.add!(pod('a', { ...mine, kind: 'ReplicaSet', apiVersion: 'apps/v1' }), false);
    handler!.add!(pod('b', { ...mine, apiVersion: 'other.example.com/v1alpha1' }), false);
    expect(e.satisfied('ns/web')).toBe(false);
    handler!.add!(pod('c', mine), false);
    expect(e.satisfied('ns/web')).toBe(true);

    e.expectDeletions('ns/web', ['ns/c', 'ns/d']);
    handler!.update!(pod('c', mine), pod('c', mine, { deletionTimestamp: '2026-11-23T23:00:00Z' }));
    expect(e.satisfied('ns/web')).toBe(false);
    handler!.delete!(pod('d', mine));
    expect(e.satisfied('ns/web')).toBe(true);
    stop();
    expect(handlers).toHaveLength(0);
  });
});
