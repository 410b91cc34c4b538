import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Reconciled } from '../../src/controller/index.js';
import type { Stored } from '../../src/object.js';
import { Sprocket, Widget } from '../fixtures/kinds.js';

// What a reconcile's object lets code do, checked by tsc (npm run typecheck) and run here.

describe('the object a reconcile gets', () => {
  it('has its identity typed present, namespace only for a kind declared namespaced', () => {
    expectTypeOf<Reconciled<Sprocket, true>['metadata']['name']>().toEqualTypeOf<string>();
    expectTypeOf<Reconciled<Sprocket, true>['metadata']['uid']>().toEqualTypeOf<string>();
    expectTypeOf<Reconciled<Sprocket, true>['metadata']['generation']>().toEqualTypeOf<number>();
    expectTypeOf<Reconciled<Sprocket, true>['metadata']['namespace']>().toEqualTypeOf<string>();
    expectTypeOf<Reconciled<Widget>['metadata']['namespace']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(Sprocket.namespaced).toEqualTypeOf<true>();
  });

  it('is read-only all the way down, and stored objects are assignable to what a write takes', () => {
    const stored: Stored<Sprocket, true> = {
      metadata: { name: 's', namespace: 'default', uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: '2026-11-27T00:00:00Z', finalizers: ['a'] },
      spec: { size: 1 },
    };
    const reconciled: Reconciled<Sprocket, true> = stored;
    // @ts-expect-error the spec is the cache's: read-only
    reconciled.spec.size = 2;
    // @ts-expect-error so are its lists
    reconciled.metadata.finalizers?.push('b');
    const write: Sprocket = stored;
    expect(write.metadata?.name).toBe('s');
  });
});
