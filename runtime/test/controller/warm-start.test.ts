import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineKind, type Kind } from '../../src/api/kind.js';
import type { Cache, Cached, EventHandler, Informer } from '../../src/cache/types.js';
import type { Client } from '../../src/client/index.js';
import { channel, controller, type Controller, type ControllerHost, type Request } from '../../src/controller/index.js';
import type { EventRecorder } from '../../src/events/index.js';
import { createLogger } from '../../src/log/index.js';
import { createMetrics } from '../../src/metrics/index.js';
import type { KubeObject } from '../../src/object.js';

// A controller's queue and sources run from its warm-up (a standby replica), its workers
// only from `run` (leading). These drive the real builder, queue and reconcile loop over an
// informer the test feeds by hand.

const Widget = defineKind<KubeObject>({ group: 'test.opgen.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

interface FakeInformer extends Informer<KubeObject> {
  list(): Cached<KubeObject>[];
  /** The store changes: handlers see an update with a new resourceVersion. */
  change(name: string): void;
}

function widget(name: string, resourceVersion: string): Cached<KubeObject> {
  return { metadata: { name, namespace: 'ns', resourceVersion } } as Cached<KubeObject>;
}

function fakeInformer(kind: Kind<KubeObject>, names: string[]): FakeInformer {
  const store = new Map(names.map((n) => [n, widget(n, '1')]));
  const handlers = new Set<EventHandler<KubeObject>>();
  return {
    kind,
    metadataOnly: false,
    addHandler(handler) {
      handlers.add(handler);
      for (const object of store.values()) handler.add?.(object, true);
      return () => void handlers.delete(handler);
    },
    addIndex() {},
    get: (name) => store.get(name),
    list: () => [...store.values()],
    hasSynced: () => true,
    reselect() {},
    waitForSync: () => Promise.resolve(true),
    health: () => ({ kind: kind.kind, synced: true, healthy: true, lastContact: undefined, consecutiveFailures: 0, lastError: undefined, listing: undefined }),
    change(name) {
      const old = store.get(name)!;
      const next = widget(name, String(Number(old.metadata.resourceVersion) + 1));
      store.set(name, next);
      for (const h of handlers) h.update?.(old, next);
    },
  };
}

function fakeHost(names: string[]) {
  const informer = fakeInformer(Widget, names);
  const controllers: Controller[] = [];
  const client = { withFieldManager: () => client } as unknown as Client;
  const cache = {
    namespace: undefined,
    informerFor: () => informer,
    has: () => true,
    start() {},
    waitForSync: () => Promise.resolve(true),
    health: () => [],
  } as unknown as Cache;
  const host: ControllerHost = {
    cache,
    log: createLogger({ level: 'silent' }),
    metrics: createMetrics({ processMetrics: false }),
    client,
    eventRecorder: () => ({}) as EventRecorder,
    addController: (c) => void controllers.push(c),
  };
  return { host, informer, controllers };
}

/** Reconciles recorded by name, in order. */
function recording() {
  const reconciled: string[] = [];
  return { reconciled, reconcile: (req: Request) => void reconciled.push(req.name) };
}

afterEach(() => vi.useRealTimers());

describe('warm standby', () => {
  it('queues while waiting to lead, reconciles nothing, and serves first the changes seen since changesSince', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] });
    const { host, informer } = fakeHost(['a', 'b', 'c']);
    const { reconciled, reconcile } = recording();
    const ctrl = controller(host).for(Widget).reconcileRequest(reconcile);
    const stop = new AbortController();
    ctrl.warmup!(stop.signal);
    informer.change('b'); // the previous leader had time to serve this one
    vi.advanceTimersByTime(5_000);
    const changesSince = performance.now();
    vi.advanceTimersByTime(1);
    informer.change('c'); // this one came after the previous leader was last seen
    await vi.advanceTimersByTimeAsync(10);
    expect(reconciled).toEqual([]);

    const running = ctrl.run(stop.signal, { changesSince });
    await vi.waitFor(() => expect(reconciled).toHaveLength(3));
    expect(reconciled).toEqual(['c', 'a', 'b']);
    stop.abort();
    await running;
  });

  it('serves every change seen during the warm-up first when run without changesSince', async () => {
    const { host, informer } = fakeHost(['a', 'b', 'c']);
    const { reconciled, reconcile } = recording();
    const ctrl = controller(host).for(Widget).reconcileRequest(reconcile);
    const stop = new AbortController();
    ctrl.warmup!(stop.signal);
    informer.change('c');
    informer.change('b');
    const running = ctrl.run(stop.signal);
    await vi.waitFor(() => expect(reconciled).toHaveLength(3));
    expect(reconciled).toEqual(['c', 'b', 'a']);
    stop.abort();
    await running;
  });
});

describe('.watches(source)', () => {
  it('reconciles what a channel sends, from before the controller leads, and stops reading when it stops', async () => {
    const { host } = fakeHost([]);
    const { reconciled, reconcile } = recording();
    const pushes = channel<Request | KubeObject>();
    const ctrl = controller(host).for(Widget).watches(pushes).reconcileRequest(reconcile);
    const stop = new AbortController();
    ctrl.warmup!(stop.signal);
    pushes.send({ namespace: 'ns', name: 'sent-while-standby' });
    await Promise.resolve();
    expect(reconciled).toEqual([]);
    const running = ctrl.run(stop.signal);
    await vi.waitFor(() => expect(reconciled).toEqual(['sent-while-standby']));
    pushes.send({ metadata: { name: 'an-object', namespace: 'ns' } });
    await vi.waitFor(() => expect(reconciled).toEqual(['sent-while-standby', 'an-object']));
    stop.abort();
    await running;
    pushes.send({ namespace: 'ns', name: 'after-stop' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(reconciled).toEqual(['sent-while-standby', 'an-object']);
  });

  it('still refuses a kind without its map function', () => {
    const { host } = fakeHost([]);
    // @ts-expect-error a kind needs its map function
    expect(() => controller(host).for(Widget).watches(Widget)).toThrow('controller: .watches(Widget) needs a map function from the object to the requests it enqueues');
  });
});

describe('reconcile all', () => {
  it('reconcileAllEvery reconciles every cached object of the for kind once per period', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] });
    const { host } = fakeHost(['a', 'b']);
    const { reconciled, reconcile } = recording();
    const ctrl = controller(host).for(Widget).reconcileAllEvery('10m').reconcileRequest(reconcile);
    const stop = new AbortController();
    const running = ctrl.run(stop.signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(reconciled).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(599_999);
    expect(reconciled).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(1);
    expect(reconciled).toEqual(['a', 'b', 'a', 'b']);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(reconciled).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    stop.abort();
    await running;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('queues a round behind real changes', async () => {
    const { host, informer } = fakeHost(['a', 'b', 'c']);
    const order: string[] = [];
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const rounds = channel();
    const ctrl = controller(host)
      .for(Widget)
      .reconcileAllOn(rounds)
      .reconcileRequest(async (req) => {
        order.push(req.name);
        if (order.length === 3) await busy; // the worker is busy while the round and a change arrive
      });
    const stop = new AbortController();
    const running = ctrl.run(stop.signal);
    await vi.waitFor(() => expect(order).toEqual(['a', 'b', 'c']));
    rounds.send({ name: 'tick' });
    await new Promise((resolve) => setImmediate(resolve));
    informer.change('b');
    release();
    await vi.waitFor(() => expect(order).toHaveLength(6));
    expect(order.slice(3)).toEqual(['b', 'a', 'c']);
    stop.abort();
    await running;
  });

  it('refuses a period that is not a duration', () => {
    const { host } = fakeHost([]);
    expect(() => controller(host).for(Widget).reconcileAllEvery('often')).toThrow(`controller: .reconcileAllEvery(): "often" is not a positive duration such as '10m', '1h' or 600000`);
  });
});
