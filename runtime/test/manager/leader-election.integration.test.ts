import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';
import { killAll, startManagerProcess, type LogLine, type ManagerProcess } from '../fixtures/manager-process.js';

const NS = 'default';
const LEASE = 'widgets.test.opgen.dev';
const LEASE_DURATION_MS = 15_000;
const RETRY_PERIOD_MS = 2_000;

const leading = (l: LogLine) => l.msg === 'acquired the lease: leading';
const reconciling = (l: LogLine) => l.msg === 'reconcile started';

describe('two managers with leader election (child processes)', () => {
  let cp: ControlPlane;
  let client: Client;
  const managers: ManagerProcess[] = [];

  beforeAll(async () => {
    cp = await startControlPlane();
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
    client = createClient(cp.kubeConfig);
  });
  afterAll(async () => {
    await killAll(managers);
    await cp?.stop();
  });

  async function metricsOf(manager: ManagerProcess): Promise<string> {
    const serving = await manager.line('metrics address', (l) => l.msg === 'Serving metrics');
    return (await fetch(`http://${String(serving.bindAddress)}/metrics`)).text();
  }

  async function widgetReconciledBy(name: string): Promise<string> {
    return eventually(`${name} reconciled`, async () => (await client.get(Widget, name, NS))?.status?.reconciledBy);
  }

  it('exactly one reconciles; after SIGKILL of the leader the other takes over within the lease duration plus retry', async () => {
    const args = ['--kubeconfig', cp.kubeconfigPath, '--leader-elect', '--metrics-bind-address=127.0.0.1:0', '--metrics-secure=false', '--health-probe-bind-address=127.0.0.1:0'];
    managers.push(startManagerProcess(args), startManagerProcess(args));
    const [a, b] = managers as [ManagerProcess, ManagerProcess];

    // Generous: two processes starting on a loaded 2-core machine.
    const leader = await eventually('a leader', () => [a, b].find((m) => m.lines.some(leading)), 90_000);
    const follower = leader === a ? b : a;
    const leaderIdentity = String(leader.lines.find(leading)!.identity);
    await follower.line('follower sees the leader', (l) => l.msg === 'new leader' && l.holder === leaderIdentity);

    for (const name of ['one', 'two', 'three']) await client.create(Widget, { metadata: { name, namespace: NS }, spec: { size: 1 } });
    for (const name of ['one', 'two', 'three']) expect(await widgetReconciledBy(name)).toBe(String(leader.pid));
    expect(follower.lines.some(reconciling)).toBe(false);
    expect(follower.lines.some(leading)).toBe(false);

    const lease = (await client.get(kinds.Lease, LEASE, NS))!;
    expect(lease.spec?.holderIdentity).toBe(leaderIdentity);
    expect(await metricsOf(leader)).toMatch(new RegExp(`^leader_election_master_status\\{name="${LEASE}"\\} 1$`, 'm'));
    expect(await metricsOf(follower)).toMatch(new RegExp(`^leader_election_master_status\\{name="${LEASE}"\\} 0$`, 'm'));
    const transitionsBefore = lease.spec?.leaseTransitions ?? 0;

    const killedAt = Date.now();
    leader.child.kill('SIGKILL');
    await leader.exited;
    const takeover = await follower.line('follower takes over', leading, LEASE_DURATION_MS + 3 * RETRY_PERIOD_MS + 10_000);
    const takeoverMs = Date.parse(String(takeover.time)) - killedAt;
    // client-go semantics: a lease is free leaseDuration after it was last seen renewed,
    // and candidates retry every retryPeriod × [1, 2.2): about 15–20 s, 25 s at most
    // (examples.md) when the machine is busy.
    expect(takeoverMs).toBeGreaterThan(LEASE_DURATION_MS - 2 * RETRY_PERIOD_MS);
    expect(takeoverMs).toBeLessThan(25_000);

    const after = (await client.get(kinds.Lease, LEASE, NS))!;
    expect(after.spec?.holderIdentity).toBe(String(takeover.identity));
    expect(after.spec?.leaseTransitions ?? 0).toBeGreaterThan(transitionsBefore);

    await client.create(Widget, { metadata: { name: 'four', namespace: NS }, spec: { size: 1 } });
    expect(await widgetReconciledBy('four')).toBe(String(follower.pid));

    follower.child.kill('SIGTERM');
    expect(await follower.exited).toBe(0);
    const released = (await client.get(kinds.Lease, LEASE, NS))!;
    expect(released.spec?.holderIdentity ?? '').toBe('');
  }, 240_000);

  it('a leader whose event loop is blocked past the lease duration stops before the other replica starts, and exits 1', async () => {
    await killAll(managers.splice(0));
    const args = ['--kubeconfig', cp.kubeconfigPath, '--leader-elect', '--metrics-bind-address=0', '--health-probe-bind-address=0'];
    const blocked = startManagerProcess(args, { BLOCK_ON: 'frozen', BLOCK_MS: String(LEASE_DURATION_MS + 10_000) });
    managers.push(blocked);
    // The previous test's replica released the lease: this one leads at once.
    await blocked.line('blocked replica leads', leading, 60_000);
    const other = startManagerProcess(args);
    managers.push(other);
    await other.line('other replica sees the leader', (l) => l.msg === 'new leader' && l.holder === blocked.lines.find(leading)!.identity);

    await client.create(Widget, { metadata: { name: 'frozen', namespace: NS }, spec: { size: 7 } });
    await blocked.line('the blocking reconcile', (l) => reconciling(l) && l.name === 'frozen');
    expect(await blocked.exited).toBe(1);
    const takeover = await other.line('other replica takes over', leading, 60_000);
    expect(await widgetReconciledBy('frozen')).toBe(String(other.pid));

    // The blocked leader's write after the stall was fenced off: it never finished that
    // reconcile, and nothing it logged about reconciling comes after the takeover.
    expect(blocked.indexOf((l) => l.msg === 'reconcile finished' && l.name === 'frozen')).toBe(-1);
    const lost = blocked.lines.find((l) => l.msg === 'leader election lost');
    expect(String(lost?.reason)).toMatch(/not renewed within 10000 ms/);
    const takeoverAt = Date.parse(String(takeover.time));
    const lastBlockedWork = blocked.lines.filter((l) => l.msg === 'reconcile started' || l.msg === 'reconcile finished').map((l) => Date.parse(String(l.time)));
    expect(lastBlockedWork.length).toBeGreaterThan(0);
    for (const at of lastBlockedWork) expect(at).toBeLessThan(takeoverAt);
    other.child.kill('SIGTERM');
    expect(await other.exited).toBe(0);
  }, 180_000);
});
