import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, kinds, type Client, type LoggerLike } from '../../src/client/index.js';
import { runLeaderElection, type ElectionClock, type Takeover } from '../../src/leaderelection/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { memoryLogger, startNetworkCut } from '../cache/support.js';
import { exposeGc } from '../fixtures/gc.js';

let cp: ControlPlane;
let client: Client;

beforeAll(async () => {
  cp = await startControlPlane();
  client = createClient(cp.kubeConfig);
});

afterAll(async () => {
  await cp?.stop();
});

const timing = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 400 };

/** One candidate process, as far as the election can tell. */
interface Candidate {
  identity: string;
  leading: boolean;
  startedAt?: number;
  stoppedAt?: number;
  lost?: boolean;
  /** What onStartedLeading's signal did. */
  leadershipAborted?: boolean;
  /** What onStartedLeading was told of the previous holder, and when (performance.now()). */
  takeover?: Takeover;
  startedAtMono?: number;
  leaders: string[];
  stop: AbortController;
  done: Promise<void>;
}

function campaign(identity: string, id: string, options: { kubeConfig?: KubeConfig; releaseOnCancel?: boolean; clock?: ElectionClock; logger?: LoggerLike } = {}): Candidate {
  const stop = new AbortController();
  const candidate: Candidate = { identity, leading: false, leaders: [], stop, done: Promise.resolve() };
  candidate.done = runLeaderElection(
    options.kubeConfig ?? cp.kubeConfig,
    { id, namespace: 'default', identity, ...timing, releaseOnCancel: options.releaseOnCancel, signal: stop.signal, clock: options.clock, logger: options.logger },
    {
      onStartedLeading(signal, _stillLeading, takeover) {
        candidate.leading = true;
        candidate.startedAt = Date.now();
        candidate.startedAtMono = performance.now();
        candidate.takeover = takeover;
        signal.addEventListener('abort', () => (candidate.leadershipAborted = true));
      },
      onStoppedLeading({ lost }) {
        candidate.leading = false;
        candidate.stoppedAt = Date.now();
        candidate.lost = lost;
      },
      onNewLeader: (leader) => candidate.leaders.push(leader),
    },
  );
  return candidate;
}

const lease = (id: string) => client.get(kinds.Lease, id, 'default');

describe('leader election on a Lease', () => {
  it('lets exactly one of two candidates lead, and records it in the Lease', async () => {
    const a = campaign('a', 'one-leader');
    const b = campaign('b', 'one-leader');
    await vi.waitFor(() => expect(a.leading || b.leading).toBe(true));
    // Several renew periods later, still exactly one.
    await new Promise((resolve) => setTimeout(resolve, 3 * timing.retryPeriodMs));
    expect([a.leading, b.leading].filter(Boolean)).toHaveLength(1);
    const leader = a.leading ? a : b;
    const follower = a.leading ? b : a;
    const record = (await lease('one-leader'))?.spec;
    expect(record).toMatchObject({ holderIdentity: leader.identity, leaseDurationSeconds: 3, leaseTransitions: 0 });
    expect(record?.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(follower.leaders).toEqual([leader.identity]);

    a.stop.abort();
    b.stop.abort();
    await Promise.all([a.done, b.done]);
  });

  it('hands over when the leader stops without releasing: not before the lease expires, soon after', async () => {
    const first = campaign('first', 'takeover', { releaseOnCancel: false });
    await vi.waitFor(() => expect(first.leading).toBe(true));
    const second = campaign('second', 'takeover');
    await new Promise((resolve) => setTimeout(resolve, 2 * timing.retryPeriodMs));
    expect(second.leading).toBe(false);

    first.stop.abort();
    const stoppedAt = performance.now();
    await first.done;
    expect(first).toMatchObject({ leading: false, lost: false, leadershipAborted: true });
    expect(first.takeover).toEqual({ previousHolderSeenAt: undefined });
    const abandoned = (await lease('takeover'))!.spec!;
    expect(abandoned.holderIdentity).toBe('first');

    await vi.waitFor(() => expect(second.leading).toBe(true), { timeout: timing.leaseDurationMs + 4 * timing.retryPeriodMs + 2_000 });
    const taken = (await lease('takeover'))!.spec!;
    expect(taken).toMatchObject({ holderIdentity: 'second', leaseTransitions: 1 });
    expect(Date.parse(taken.acquireTime!) - Date.parse(abandoned.renewTime!)).toBeGreaterThanOrEqual(timing.leaseDurationMs);
    expect(second.leaders).toEqual(['first', 'second']);
    // The new leader knows when it last saw the old one renew: within a jittered retry
    // period (and a request) of the old one's stop, each polls that often; a Lease duration
    // or more before the takeover. The manager serves the changes made since then first.
    const seenAt = second.takeover?.previousHolderSeenAt;
    const polling = 1.2 * timing.retryPeriodMs + 1_000;
    expect(seenAt).toBeGreaterThan(stoppedAt - polling);
    expect(seenAt).toBeLessThan(stoppedAt + polling);
    expect(second.startedAtMono! - seenAt!).toBeGreaterThanOrEqual(timing.leaseDurationMs);

    second.stop.abort();
    await second.done;
  });

  it('releases the lease on a clean stop, so the next candidate takes over without waiting for expiry', async () => {
    const first = campaign('first', 'release');
    await vi.waitFor(() => expect(first.leading).toBe(true));
    first.stop.abort();
    await first.done;
    expect(first.lost).toBe(false);
    const released = (await lease('release'))!.spec!;
    expect(released.holderIdentity ?? '').toBe('');
    expect(released.leaseTransitions).toBe(0);

    const second = campaign('second', 'release');

    await vi.waitFor(() => expect(second.leading).toBe(true), { timeout: timing.leaseDurationMs });
    const taken = (await lease('release'))!.spec!;
    expect(taken).toMatchObject({ holderIdentity: 'second', leaseTransitions: 1 });
    expect(Date.parse(taken.acquireTime!) - Date.parse(released.renewTime!)).toBeLessThan(timing.leaseDurationMs);
    second.stop.abort();
    await second.done;
  });

  it('gives up leading when it cannot renew within the deadline, before anyone else can take over', async () => {
    const network = await startNetworkCut(cp.kubeConfig);
    try {
      const cutOff = campaign('cut-off', 'partition', { kubeConfig: network.kubeConfig });
      await vi.waitFor(() => expect(cutOff.leading).toBe(true));
      const other = campaign('other', 'partition');

      network.cut();
      await cutOff.done;
      expect(cutOff).toMatchObject({ leading: false, lost: true, leadershipAborted: true });

      await vi.waitFor(() => expect(other.leading).toBe(true), { timeout: timing.leaseDurationMs + 4 * timing.retryPeriodMs + 2_000 });
      expect(other.startedAt!).toBeGreaterThan(cutOff.stoppedAt!);
      expect((await lease('partition'))?.spec).toMatchObject({ holderIdentity: 'other', leaseTransitions: 1 });
      other.stop.abort();
      await other.done;
    } finally {
      await network.close();
    }
  });

  it('gives up leading at the renew deadline when its network freezes, also after a garbage collection', async () => {
    // A frozen network answers nothing and resets nothing: only the renew attempt's own
    // deadline ends the hung write. Composed with AbortSignal.any, Node's AbortSignal.timeout
    // is collected and never fires (nodejs/node#57736): the leader then hung in the write
    // until the transport's 20 s response timeout and its retries, still running, not leading.
    const gc = exposeGc();
    const network = await startNetworkCut(cp.kubeConfig);
    const collecting = setInterval(gc, 100);
    try {
      const frozen = campaign('frozen', 'freeze', { kubeConfig: network.kubeConfig });
      await vi.waitFor(() => expect(frozen.leading).toBe(true));
      network.freeze();
      // The deadline runs from the last renewal, which a loaded machine may have sent well
      // before the freeze: read it past the relay.
      const lastRenewal = Date.parse((await lease('freeze'))!.spec!.renewTime!);
      const boundMs = timing.renewDeadlineMs + 5_000;
      const stopped = await Promise.race([frozen.done.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), boundMs))]);
      expect(stopped, `stopped within ${boundMs} ms of the freeze`).toBe(true);
      expect(frozen).toMatchObject({ leading: false, lost: true, leadershipAborted: true });
      expect(frozen.stoppedAt! - lastRenewal).toBeGreaterThanOrEqual(timing.renewDeadlineMs - timing.retryPeriodMs);
    } finally {
      clearInterval(collecting);
      network.thaw();
      await network.close();
    }
  });

  it('keeps its leader when the wall clocks of both candidates jump an hour, in opposite directions', async () => {
    let jumpMs = 0;
    const jumping = (sign: number): ElectionClock => ({ now: () => performance.now(), wall: () => new Date(Date.now() + sign * jumpMs) });
    const leader = campaign('steady', 'clock-jump', { clock: jumping(-1) });
    await vi.waitFor(() => expect(leader.leading).toBe(true));
    const follower = campaign('jumper', 'clock-jump', { clock: jumping(1) });
    await vi.waitFor(() => expect(follower.leaders).toEqual(['steady']));

    // An NTP step: the follower's clock leaps an hour ahead, the leader's an hour back.
    jumpMs = 3_600_000;
    await new Promise((resolve) => setTimeout(resolve, 2 * timing.leaseDurationMs));
    expect(leader.leading).toBe(true);
    expect(follower.leading).toBe(false);
    const record = (await lease('clock-jump'))!.spec!;
    expect(record).toMatchObject({ holderIdentity: 'steady', leaseTransitions: 0 });
    // The stamps did follow the leader's wall clock; only durations ignore it.
    expect(Date.now() - Date.parse(record.renewTime!)).toBeGreaterThan(3_500_000);

    leader.stop.abort();
    follower.stop.abort();
    await Promise.all([leader.done, follower.done]);
  });

  it('stops leading as soon as it sees another holder in the Lease, without waiting for the renew deadline', async () => {
    const logger = memoryLogger();
    const ousted = campaign('ousted', 'usurped', { logger });
    await vi.waitFor(() => expect(ousted.leading).toBe(true));
    const held = (await lease('usurped'))!;
    await client.update(kinds.Lease, { ...held, spec: { ...held.spec, holderIdentity: 'usurper' } });
    await ousted.done;
    expect(ousted).toMatchObject({ leading: false, lost: true, leadershipAborted: true });
    expect(logger.lines.find((l) => l.message === 'leader election lost')?.fields).toMatchObject({ reason: 'another holder took the lease: usurper' });
    expect((await lease('usurped'))?.spec?.holderIdentity).toBe('usurper');
  });

  it('refuses settings under which two leaders could overlap', async () => {
    const signal = new AbortController().signal;
    const callbacks = { onStartedLeading() {}, onStoppedLeading() {} };
    await expect(runLeaderElection(cp.kubeConfig, { id: 'x', leaseDurationMs: 5_000, renewDeadlineMs: 5_000, signal }, callbacks)).rejects.toThrow(
      'leaseDurationMs must be greater than renewDeadlineMs',
    );
    await expect(runLeaderElection(cp.kubeConfig, { id: 'x', renewDeadlineMs: 2_000, retryPeriodMs: 2_000, signal }, callbacks)).rejects.toThrow(
      'renewDeadlineMs must be greater than 1.2 × retryPeriodMs',
    );
  });
});
