import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kinds, type Client, type Manager } from '@opgen/runtime';
import { eventually, installCRDs, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { widgetManager } from '../../book/snippets/manager.js';
import { FINALIZER, released } from '../../book/snippets/widget-controller.js';
import { directClient, expectOversizedWidgetIgnored, expectWidgetReady } from '../../book/snippets/widget-testing.js';
import { Widget } from '../../book/snippets/widget-types.js';

const NS = 'default';

/** The book's Widget controller and test patterns, run as the chapters describe them, on a real control plane. */
describe('the book’s Widget controller against a real API server', () => {
  let cp: ControlPlane;
  let mgr: Manager;
  let running: Promise<void>;
  let client: Client;

  beforeAll(async () => {
    cp = await startControlPlane();
    await installCRDs(cp.kubeConfig, new URL('./widget-crd.yaml', import.meta.url).pathname);
    client = directClient(cp);
    // The manager of the book's main, metadata-only ConfigMaps and rate limit included.
    mgr = widgetManager(['--metrics-bind-address=0', '--health-probe-bind-address=0'], {
      kubeConfig: cp.kubeConfig,
      handleSignals: false,
      logLevel: 'error',
      logDestination: { write: () => undefined },
    });
    running = mgr.start();
    await mgr.elected();
  });

  afterAll(async () => {
    mgr?.stop();
    await running;
    await cp?.stop();
  });

  it('"Testing": eventually sees the ConfigMap, its owner reference and the Ready condition', async () => {
    await expectWidgetReady(client, 'ready', NS);
    const widget = await client.get(Widget, 'ready', NS);
    expect(widget?.metadata.finalizers).toEqual([FINALIZER]);
  });

  it('"Testing": consistently sees no ConfigMap for a Widget the controller refuses (terminal error)', async () => {
    await expectOversizedWidgetIgnored(client, 'too-big', NS);
  });

  it('"Writing controllers": a new size makes a new ConfigMap and the index finds the old one to delete', async () => {
    await client.create(Widget, { metadata: { name: 'resized', namespace: NS }, spec: { size: 2 } });
    await eventually(async () => expect(await client.get(kinds.ConfigMap, 'resized-size-2', NS)).toBeDefined());
    await client.patch(Widget, { metadata: { name: 'resized', namespace: NS } }, { spec: { size: 6 } });
    await eventually(async () => {
      expect(await client.get(kinds.ConfigMap, 'resized-size-6', NS)).toBeDefined();
      expect(await client.get(kinds.ConfigMap, 'resized-size-2', NS)).toBeUndefined();
    });
  });

  it('"Writing controllers": an event is recorded for the applied ConfigMap', async () => {
    await client.create(Widget, { metadata: { name: 'evented', namespace: NS }, spec: { size: 8 } });
    const events = await eventually(async () => {
      const events = await client.list(kinds.Event, { namespace: NS });
      const mine = events.filter((e) => e.regarding?.name === 'evented' && e.reason === 'Applied');
      return mine.length > 0 && mine;
    });
    expect(events[0]?.note).toBe('ConfigMap evented-size-8 holds size 8');
  });

  it('"Writing controllers": deleting a Widget runs the finalizer’s cleanup, then lets it go', async () => {
    await client.create(Widget, { metadata: { name: 'doomed', namespace: NS }, spec: { size: 2 } });
    await eventually(async () => (await client.get(Widget, 'doomed', NS))?.metadata.finalizers?.includes(FINALIZER) === true);
    expect(released.has('doomed')).toBe(false);
    await client.delete(Widget, { metadata: { name: 'doomed', namespace: NS } });
    await eventually(async () => (await client.get(Widget, 'doomed', NS)) === undefined);
    expect(released.has('doomed')).toBe(true);
  });
});
