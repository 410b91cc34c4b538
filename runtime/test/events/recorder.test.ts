import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createEventRecorder } from '../../src/events/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { memoryLogger } from '../cache/support.js';
import { configMap, createNamespace } from '../client/support.js';

let cp: ControlPlane;
let client: Client;

beforeAll(async () => {
  cp = await startControlPlane();
  client = createClient(cp.kubeConfig);
});

afterAll(async () => {
  await cp?.stop();
});

const eventsIn = async (namespace: string) =>
  (await client.list(kinds.Event, { namespace })).sort((a, b) => a.eventTime!.localeCompare(b.eventTime!));

describe('the events recorder', () => {
  it('records an events.k8s.io/v1 Event about the object, as its controller and instance', async () => {
    const ns = await createNamespace(client, 'ev');
    const target = await client.create(kinds.ConfigMap, configMap(ns, 'target'));
    const recorder = createEventRecorder(client, { reportingController: 'test.opgen.dev/widget-controller', reportingInstance: 'pod-1' });
    recorder.event(target, 'Normal', 'Created', 'made the thing', 'Reconcile');
    await recorder.flush();

    const [event, ...rest] = await eventsIn(ns);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      type: 'Normal',
      reason: 'Created',
      note: 'made the thing',
      action: 'Reconcile',
      reportingController: 'test.opgen.dev/widget-controller',
      reportingInstance: 'pod-1',
      regarding: { kind: 'ConfigMap', apiVersion: 'v1', name: 'target', namespace: ns, uid: target.metadata!.uid },
    });
    expect(event!.metadata?.name).toMatch(/^target\.[0-9a-f]+$/);
    expect(event!.series).toBeUndefined();
    // Older tools read Events through core/v1: the same object is there.
    const core = await client.list({ group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true }, { namespace: ns });
    expect(core).toHaveLength(1);
  });

  it('folds repeats into a series on the first Event, and keeps different events apart', async () => {
    const ns = await createNamespace(client, 'series');
    const target = await client.create(kinds.ConfigMap, configMap(ns, 'noisy'));
    const recorder = createEventRecorder(client, { reportingController: 'test.opgen.dev/noisy' });
    for (let i = 0; i < 5; i++) recorder.event(target, 'Warning', 'SyncFailed', 'could not sync');
    await recorder.flush();
    recorder.event(target, 'Warning', 'SyncFailed', 'could not sync');
    recorder.event(target, 'Warning', 'SyncFailed', 'a different reason to fail');
    recorder.event(target, 'Normal', 'SyncFailed', 'could not sync');
    await recorder.flush();

    const events = await eventsIn(ns);
    expect(events.map((e) => `${e.type} ${e.note} ${e.series?.count ?? 1}`).sort()).toEqual([
      'Normal could not sync 1',
      'Warning a different reason to fail 1',
      'Warning could not sync 6',
    ]);
    const repeated = events.find((e) => e.series)!;
    expect(Date.parse(repeated.series!.lastObservedTime)).toBeGreaterThanOrEqual(Date.parse(repeated.eventTime!));
    expect(repeated.action).toBe('SyncFailed');
  });

  it('starts a new Event once the series window has passed', async () => {
    const ns = await createNamespace(client, 'window');
    const target = await client.create(kinds.ConfigMap, configMap(ns, 'slow'));
    const recorder = createEventRecorder(client, { reportingController: 'test.opgen.dev/slow', seriesWindowMs: 200 });
    recorder.event(target, 'Normal', 'Tick', 'tick');
    await recorder.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));
    recorder.event(target, 'Normal', 'Tick', 'tick');
    await recorder.flush();
    expect((await eventsIn(ns)).map((e) => e.series?.count)).toEqual([undefined, undefined]);
  });

  it('puts events about cluster-scoped objects in the default namespace and cuts long notes to 1 KiB', async () => {
    const ns = await createNamespace(client, 'cluster');
    const namespace = (await client.get(kinds.Namespace, ns))!;
    const recorder = createEventRecorder(client, { reportingController: 'test.opgen.dev/cluster' });
    recorder.event(namespace, 'Normal', 'Seen', 'é'.repeat(600));
    await recorder.flush();
    const event = (await eventsIn('default')).find((e) => e.regarding?.name === ns);
    expect(event?.regarding).toMatchObject({ kind: 'Namespace', name: ns });
    expect(Buffer.byteLength(event!.note!)).toBe(1024);
    expect(event!.note).toBe('é'.repeat(512));
  });

  it('never throws into the caller: a rejected Event is logged', async () => {
    const ns = await createNamespace(client, 'bad');
    const target = await client.create(kinds.ConfigMap, configMap(ns, 'target'));
    const logger = memoryLogger();
    const recorder = createEventRecorder(client, { reportingController: 'test.opgen.dev/bad', logger });
    expect(() => recorder.event(target, 'Normal', 'R'.repeat(200), 'reason too long for the API')).not.toThrow();
    await recorder.flush();
    expect(await eventsIn(ns)).toEqual([]);
    const failure = logger.lines.find((l) => l.message === 'recording an event failed');
    expect(failure?.level).toBe('error');
    expect(String((failure?.fields as { err: Error }).err.message)).toContain('reason');
  });
});
