import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';
import { killAll, startManagerProcess, type LogLine, type ManagerProcess } from '../fixtures/manager-process.js';

const NS = 'default';

describe('manager shutdown on signals (manager in a child process)', () => {
  let cp: ControlPlane;
  let client: Client;
  const managers: ManagerProcess[] = [];

  beforeAll(async () => {
    cp = await startControlPlane();
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
    client = createClient(cp.kubeConfig);
  });
  afterEach(async () => {
    await killAll(managers.splice(0));
    for (const w of await client.list(Widget, { namespace: NS })) await client.delete(Widget, w);
  });
  afterAll(async () => {
    await cp?.stop();
  });

  async function start(env: Record<string, string> = {}): Promise<{ manager: ManagerProcess; metricsUrl: string }> {
    const manager = startManagerProcess(['--kubeconfig', cp.kubeconfigPath, '--metrics-bind-address=127.0.0.1:0', '--metrics-secure=false', '--health-probe-bind-address=127.0.0.1:0'], env);
    managers.push(manager);
    const serving = await manager.line('Serving metrics', (l) => l.msg === 'Serving metrics');
    await manager.line('workers started', (l) => l.msg === 'Starting workers');
    return { manager, metricsUrl: `http://${String(serving.bindAddress)}/metrics` };
  }

  const reconcileOf = (msg: string, name: string) => (l: LogLine) => l.msg === msg && l.name === name;

  it('on SIGTERM lets the running reconcile finish, starts no queued one, and exits 0', async () => {
    const { manager, metricsUrl } = await start();
    await client.create(Widget, { metadata: { name: 'slow', namespace: NS }, spec: { size: 1, delayMs: 3000 } });
    await manager.line('slow reconcile started', reconcileOf('reconcile started', 'slow'));
    await client.create(Widget, { metadata: { name: 'queued', namespace: NS }, spec: { size: 2 } });
    await eventually('queued waiting in the work queue', async () =>
      /^workqueue_depth\{name="widget",controller="widget"\} 1$/m.test(await (await fetch(metricsUrl)).text()),
    );

    manager.child.kill('SIGTERM');
    expect(await manager.exited).toBe(0);

    const signalled = manager.indexOf((l) => l.msg?.startsWith('Received signal') === true);
    const finished = manager.indexOf(reconcileOf('reconcile finished', 'slow'));
    const stopped = manager.indexOf((l) => l.msg === 'Manager stopped');
    expect(signalled).toBeGreaterThanOrEqual(0);
    expect(finished).toBeGreaterThan(signalled);
    expect(stopped).toBeGreaterThan(finished);
    expect(manager.indexOf(reconcileOf('reconcile started', 'queued'))).toBe(-1);
    expect((await client.get(Widget, 'slow', NS))?.status?.observedSize).toBe(1);
    expect((await client.get(Widget, 'queued', NS))?.status).toBeUndefined();
  }, 120_000);

  it('exits at once with 1 on a second signal', async () => {
    const { manager } = await start();
    await client.create(Widget, { metadata: { name: 'endless', namespace: NS }, spec: { size: 1, delayMs: 60_000 } });
    await manager.line('endless reconcile started', reconcileOf('reconcile started', 'endless'));
    manager.child.kill('SIGTERM');
    await manager.line('first signal seen', (l) => l.msg?.startsWith('Received signal') === true);
    manager.child.kill('SIGINT');
    expect(await manager.exited).toBe(1);
    expect(manager.indexOf(reconcileOf('reconcile finished', 'endless'))).toBe(-1);
  }, 120_000);

  it('exits 1 when in-flight reconciles outlast the graceful shutdown timeout', async () => {
    const { manager } = await start({ GRACEFUL_SHUTDOWN_MS: '500' });
    await client.create(Widget, { metadata: { name: 'stuck', namespace: NS }, spec: { size: 1, delayMs: 60_000 } });
    await manager.line('stuck reconcile started', reconcileOf('reconcile started', 'stuck'));
    manager.child.kill('SIGTERM');
    expect(await manager.exited).toBe(1);
    expect(manager.indexOf((l) => l.msg === 'Graceful shutdown timed out')).toBeGreaterThan(0);
    expect(manager.indexOf(reconcileOf('reconcile finished', 'stuck'))).toBe(-1);
  }, 120_000);
});
