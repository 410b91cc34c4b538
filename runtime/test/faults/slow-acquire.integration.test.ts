import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { formatMicroTime } from '../../src/client/time.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { startNetworkCut, type NetworkCut } from '../cache/support.js';
import { eventually } from '../fixtures/eventually.js';
import { WIDGET_CRD } from '../fixtures/kinds.js';
import { killAll, startManagerProcess, type LogLine, type ManagerProcess } from '../fixtures/manager-process.js';

// The soak's case: a candidate's GET of the Lease hangs in a network freeze for most of the
// renew deadline (10 s by default), then the Lease turns out free and the candidate takes
// it. client-go counts the renew deadline from the acquisition, so the new leader keeps
// the Lease; counted from the start of the attempt, it lost it at once and exited 1.
const NS = 'default';
const LEASE = 'widgets.test.opgen.dev';
const HELD_MS = 8_500;
/** Past the attempt's renew deadline (10 s) by several renewals (every 2 s). */
const WATCH_MS = 12_000;

const leading = (l: LogLine) => l.msg === 'acquired the lease: leading';

describe('a candidate whose read of the Lease hung in a network freeze, then won it', () => {
  let cp: ControlPlane;
  let admin: Client;
  let network: NetworkCut;
  let dir: string;
  const managers: ManagerProcess[] = [];

  beforeAll(async () => {
    cp = await startControlPlane();
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
    admin = createClient(cp.kubeConfig);
    network = await startNetworkCut(cp.kubeConfig);
    dir = mkdtempSync(join(tmpdir(), 'opgen-slow-acquire-'));
    writeFileSync(join(dir, 'kubeconfig'), network.kubeConfig.exportConfig());
  });
  afterAll(async () => {
    await killAll(managers);
    await network?.close();
    await cp?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps leading past the renew deadline counted from the attempt, renewing the Lease, and does not exit', async () => {
    // Another holder, valid for an hour: the candidate waits as a standby until it is released.
    const now = formatMicroTime(new Date());
    await admin.create(kinds.Lease, {
      metadata: { name: LEASE, namespace: NS },
      spec: { holderIdentity: 'another-replica', leaseDurationSeconds: 3_600, acquireTime: now, renewTime: now, leaseTransitions: 0 },
    });
    const candidate = startManagerProcess(['--kubeconfig', join(dir, 'kubeconfig'), '--leader-elect', '--metrics-bind-address=0', '--health-probe-bind-address=0']);
    managers.push(candidate);
    await candidate.line('the candidate sees the other holder', (l) => l.msg === 'new leader' && l.holder === 'another-replica', 90_000);

    // Its next try's GET is held by the frozen network; meanwhile the other holder lets go.
    network.freeze();
    const heldSince = await eventually('the candidate reads the Lease into the freeze', () => network.heldSince, 10_000);
    const lease = (await admin.get(kinds.Lease, LEASE, NS))!;
    await admin.update(kinds.Lease, { ...lease, spec: { leaseTransitions: 0, leaseDurationSeconds: 1, acquireTime: now, renewTime: formatMicroTime(new Date()) } });
    await sleep(Math.max(0, heldSince + HELD_MS - performance.now()));
    network.thaw();
    const thawedAt = performance.now();

    const acquired = await candidate.line('the candidate takes the Lease', leading, 10_000);
    const identity = String(acquired.identity);
    console.log(`the GET was held ${Math.round(thawedAt - heldSince)} ms; the candidate leads ${Math.round(performance.now() - thawedAt)} ms after the thaw`);
    const taken = (await admin.get(kinds.Lease, LEASE, NS))!.spec!;
    expect(taken.holderIdentity).toBe(identity);

    // Past the deadline counted from the start of the attempt, by several renewals.
    const exited = await Promise.race([candidate.exited, sleep(WATCH_MS).then(() => undefined)]);
    expect(candidate.lines.filter((l) => /leader election lost/i.test(String(l.msg)))).toEqual([]);
    expect(exited).toBeUndefined();
    const renewed = (await admin.get(kinds.Lease, LEASE, NS))!.spec!;
    expect(renewed.holderIdentity).toBe(identity);
    expect(Date.parse(String(renewed.renewTime))).toBeGreaterThan(Date.parse(String(taken.renewTime)));
  }, 180_000);
});
