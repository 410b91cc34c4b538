import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { controller, requeue } from '../../src/controller/index.js';
import { AlreadyOwnedError, NotOwnedError, setControllerReference } from '../../src/helpers/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { startTestCluster, type TestCluster, type TestTier } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

const NS = 'default';
/** The controller's field manager: its name. */
const MANAGER = 'widget';

// A Widget controller that applies a ConfigMap named after the Widget (the name the
// scaffold's starter used to take) and, when annotated `delete`, deletes the ConfigMap that
// annotation names. Another party's ConfigMap of that name must never be written, adopted
// without `adopt: true`, or garbage-collected with the Widget; on both tiers, the control
// plane with kube-controller-manager's garbage collector.
describe.each<TestTier>(['memory', 'controlplane'])('ctx writes only its own children (%s tier)', (tier) => {
  let test: TestCluster;
  let mgr: Manager;
  let running: Promise<void>;
  let client: Client;
  /** The last reconcile error of each Widget. */
  const errors = new Map<string, unknown>();

  /** Lets the manager work: fake time on the memory tier, a poll on the control plane. */
  const until = async <T>(what: string, probe: () => Promise<T>): Promise<Exclude<T, undefined | false>> => {
    if (tier === 'memory') await test.runUntilIdle();
    return eventually(what, probe, 120_000);
  };

  beforeAll(async () => {
    test = await startTestCluster({ tier, crds: WIDGET_CRD, controllerManager: true });
    client = createClient(test.cluster, { fieldManager: 'someone-else' });
    mgr = createManager({ cluster: test.cluster, handleSignals: false, logLevel: 'silent' });
    controller(mgr)
      .for(Widget)
      .owns(kinds.ConfigMap)
      .onError((error, widget) => {
        errors.set(widget.metadata.name, error);
        return requeue.after('1h');
      })
      .reconcile(async (widget, ctx) => {
        const annotations = widget.metadata.annotations ?? {};
        if (annotations.delete) return ctx.delete(kinds.ConfigMap, { metadata: { name: annotations.delete } });
        await ctx.apply(kinds.ConfigMap, { metadata: { name: widget.metadata.name }, data: { size: String(widget.spec.size ?? 0) } }, { adopt: annotations.adopt === 'true' });
        errors.delete(widget.metadata.name);
      });
    running = mgr.start();
    await mgr.elected();
  }, 300_000);

  afterAll(async () => {
    mgr?.stop();
    await running;
    await test?.stop();
  });

  const bystander = (name: string) => client.create(kinds.ConfigMap, { metadata: { name, namespace: NS, labels: { app: 'theirs' } }, data: { theirs: 'yes' } });
  const managers = (cm: { metadata?: { managedFields?: Array<{ manager?: string }> } } | undefined) => (cm?.metadata?.managedFields ?? []).map((m) => m.manager);

  it('an unrelated ConfigMap of the child\'s name is left untouched, the reconcile says why, and deleting the Widget does not collect it', async () => {
    const before = await bystander('taken');
    await client.create(Widget, { metadata: { name: 'taken', namespace: NS }, spec: { size: 3 } });
    // A Widget whose child is its own: collected with it, so the garbage collector ran.
    await client.create(Widget, { metadata: { name: 'mine', namespace: NS }, spec: { size: 1 } });

    const error = await until('the reconcile error of "taken"', async () => errors.get('taken'));
    expect(error).toBeInstanceOf(NotOwnedError);
    expect(String(error)).toContain('ConfigMap default/taken exists and no controller owns it: Widget "taken" adopts it only when asked to');
    const mine = await until('the child of "mine"', () => client.get(kinds.ConfigMap, 'mine', NS));
    // Created, yet recorded as applied: a later apply that leaves a field out removes it.
    expect(mine.metadata.managedFields?.filter((m) => m.manager === MANAGER).map((m) => m.operation)).toEqual(['Apply']);

    const after = await client.get(kinds.ConfigMap, 'taken', NS);
    expect(after?.data).toEqual({ theirs: 'yes' });
    expect(after?.metadata.ownerReferences).toBeUndefined();
    expect(after?.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(managers(after)).not.toContain(MANAGER);

    for (const name of ['taken', 'mine']) await client.delete(Widget, { metadata: { name, namespace: NS } }, { propagationPolicy: 'Foreground' });
    // Foreground: each Widget goes once the collector has deleted its dependants.
    await until('both Widgets gone', async () => (await client.list(Widget, { namespace: NS })).every((w) => !['taken', 'mine'].includes(w.metadata.name)));
    await until('the child of "mine" collected', async () => (await client.get(kinds.ConfigMap, 'mine', NS)) === undefined);
    const survivor = await client.get(kinds.ConfigMap, 'taken', NS);
    expect(survivor?.data).toEqual({ theirs: 'yes' });
    expect(survivor?.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    // kube-controller-manager's garbage collector starts late on a loaded machine.
  }, 300_000);

  it('an object no controller owns is adopted once the call says adopt: true, not before', async () => {
    await bystander('adoptee');
    const widget = await client.create(Widget, { metadata: { name: 'adoptee', namespace: NS }, spec: { size: 2 } });
    expect(await until('the reconcile error of "adoptee"', async () => errors.get('adoptee'))).toBeInstanceOf(NotOwnedError);
    expect((await client.get(kinds.ConfigMap, 'adoptee', NS))?.metadata.ownerReferences).toBeUndefined();

    await client.patch(Widget, widget, { metadata: { annotations: { adopt: 'true' } } });
    const adopted = await until('the ConfigMap adopted', async () => {
      const cm = await client.get(kinds.ConfigMap, 'adoptee', NS);
      return cm?.metadata.ownerReferences?.length ? cm : undefined;
    });
    expect(adopted.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Widget', name: 'adoptee', uid: widget.metadata.uid, controller: true })]);
    expect(adopted.data).toEqual({ theirs: 'yes', size: '2' });
    expect(managers(adopted)).toContain(MANAGER);
  });

  it('an object another controller owns is refused, naming both owners, even with adopt: true; ctx.delete refuses it too', async () => {
    const holder = await client.create(Widget, { metadata: { name: 'holder', namespace: NS, annotations: { delete: 'none' } }, spec: {} });
    const held = await client.create(kinds.ConfigMap, setControllerReference(holder, Widget, { metadata: { name: 'contested', namespace: NS }, data: { held: 'yes' } }));
    await client.create(Widget, { metadata: { name: 'contested', namespace: NS, annotations: { adopt: 'true' } }, spec: { size: 5 } });
    await client.create(Widget, { metadata: { name: 'deleter', namespace: NS, annotations: { delete: 'contested' } }, spec: {} });

    const error = await until('the reconcile error of "contested"', async () => errors.get('contested'));
    expect(error).toBeInstanceOf(AlreadyOwnedError);
    expect(String(error)).toContain('ConfigMap default/contested is already controlled by Widget "holder": Widget "contested" may not take it over');
    const refusal = await until('the reconcile error of "deleter"', async () => errors.get('deleter'));
    expect(String(refusal)).toContain('already controlled by Widget "holder": Widget "deleter" may not take it over');

    const after = await client.get(kinds.ConfigMap, 'contested', NS);
    expect(after?.data).toEqual({ held: 'yes' });
    expect(after?.metadata.resourceVersion).toBe(held.metadata.resourceVersion);
  });
});
