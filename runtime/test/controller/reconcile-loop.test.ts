import { afterEach, describe, expect, it, vi } from 'vitest';
import { TerminalError, terminal, type Request } from '../../src/controller/index.js';
import { runReconcileLoop } from '../../src/controller/reconcile-loop.js';
import type { Result } from '../../src/controller/requeue.js';
import { ApiError } from '../../src/client/index.js';
import { createLogger, withLogContext, type Logger } from '../../src/log/index.js';
import { createMetrics, type Metrics } from '../../src/metrics/index.js';
import { createWorkQueue, type WorkQueue } from '../../src/queue/index.js';

interface Harness {
  queue: WorkQueue;
  metrics: Metrics;
  lines: Record<string, unknown>[];
  log: Logger;
  done: Promise<void>;
  calls: Array<{ key: string; at: number; reconcileId: string }>;
}

/** A loop of `workers` workers over a real queue, metrics registry and JSON logger. */
function start(reconcile: (req: Request, log: Logger) => Promise<Result> | Result, workers = 1): Harness {
  const queue = createWorkQueue();
  const metrics = createMetrics({ processMetrics: false });
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ format: 'json', level: 'debug', destination: { write: (l: string) => void lines.push(JSON.parse(l)) } });
  const calls: Harness['calls'] = [];
  const done = runReconcileLoop<{ reconcileId: string; log: Logger }>({
    queue,
    log: log.child({ controller: 'test' }),
    metrics: metrics.controllers.forController('test', workers),
    workers,
    context: (_req, reconcileId, l) => ({ reconcileId, log: l }),
    reconcile: (req, ctx) => {
      calls.push({ key: req.namespace ? `${req.namespace}/${req.name}` : req.name, at: performance.now(), reconcileId: ctx.reconcileId });
      return reconcile(req, ctx.log);
    },
  });
  return { queue, metrics, lines, log, done, calls };
}

async function value(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  const data = await metric!.get();
  const match = data.values.find((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val));
  return match?.value ?? 0;
}

const flush = () => new Promise((r) => setImmediate(r));

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 2));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('reconcile loop', () => {
  it('reconciles a key and counts a success', async () => {
    const h = start(() => undefined);
    h.queue.add('ns/a');
    await flush();
    expect(h.calls.map((c) => c.key)).toEqual(['ns/a']);
    expect(await value(h.metrics, 'controller_runtime_reconcile_total', { controller: 'test', result: 'success' })).toBe(1);
    h.queue.shutDown();
    await h.done;
  });

  it('retries a throwing key with growing backoff while other keys run normally', async () => {
    vi.useFakeTimers();
    const h = start((req) => {
      if (req.name === 'bad') throw new Error('boom');
    });
    h.queue.add('ns/bad');
    h.queue.add('ns/good');
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(5 + 10 + 20 + 40 + 80);
    const bad = h.calls.filter((c) => c.key === 'ns/bad').map((c) => c.at);
    expect(bad).toHaveLength(6);
    const gaps = bad.slice(1).map((t, i) => Math.round(t - bad[i]!));
    expect(gaps).toEqual([5, 10, 20, 40, 80]);
    expect(h.calls.filter((c) => c.key === 'ns/good')).toHaveLength(1);
    expect(await value(h.metrics, 'controller_runtime_reconcile_errors_total', { controller: 'test' })).toBe(6);
    expect(await value(h.metrics, 'controller_runtime_reconcile_total', { result: 'error' })).toBe(6);
    expect(await value(h.metrics, 'controller_runtime_reconcile_panics_total', { controller: 'test' })).toBe(0);
    const errors = h.lines.filter((l) => l.msg === 'Reconciler error');
    expect(errors).toHaveLength(6);
    expect(errors[0]).toMatchObject({ level: 'error', namespace: 'ns', name: 'bad', err: { message: 'boom' } });
    h.queue.shutDown();
    await h.done;
  });

  it('resets the backoff after a success', async () => {
    vi.useFakeTimers();
    let failures = 3;
    const h = start(() => {
      if (failures-- > 0) throw new Error('not yet');
    });
    h.queue.add('k');
    await vi.advanceTimersByTimeAsync(5 + 10 + 20);
    expect(h.calls).toHaveLength(4);
    expect(h.queue.numRequeues('k')).toBe(0);
    h.queue.shutDown();
    await h.done;
  });

  it('does not retry a terminal error and counts it as terminal', async () => {
    vi.useFakeTimers();
    const h = start((req) => {
      if (req.name === 'a') throw new TerminalError('spec is invalid');
      throw terminal(new Error('wrapped'));
    });
    h.queue.add('a');
    h.queue.add('b');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.calls.map((c) => c.key)).toEqual(['a', 'b']);
    expect(await value(h.metrics, 'controller_runtime_terminal_reconcile_errors_total', { controller: 'test' })).toBe(2);
    expect(await value(h.metrics, 'controller_runtime_reconcile_errors_total', { controller: 'test' })).toBe(2);
    h.queue.shutDown();
    await h.done;
  });

  it('counts programming faults as panics and keeps going', async () => {
    vi.useFakeTimers();
    const h = start((req) => {
      if (req.name === 'a') {
        const missing = undefined as unknown as { spec: { size: number } };
        return { requeueAfter: missing.spec.size };
      }
      return undefined;
    });
    h.queue.add('a');
    h.queue.add('b');
    await vi.advanceTimersByTimeAsync(0);
    expect(await value(h.metrics, 'controller_runtime_reconcile_panics_total', { controller: 'test' })).toBe(1);
    expect(h.calls.map((c) => c.key)).toEqual(['a', 'b']);
    h.queue.shutDown();
    await h.done;
  });

  it('requeues after the asked delay and clears the backoff', async () => {
    vi.useFakeTimers();
    let n = 0;
    const h = start(() => {
      n++;
      if (n === 1) throw new Error('first');
      if (n === 2) return { requeueAfter: 30_000 };
      return undefined;
    });
    h.queue.add('k');
    await vi.advanceTimersByTimeAsync(5);
    expect(h.calls).toHaveLength(2);
    expect(h.queue.numRequeues('k')).toBe(0);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(h.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.calls).toHaveLength(3);
    expect(await value(h.metrics, 'controller_runtime_reconcile_total', { result: 'requeue_after' })).toBe(1);
    h.queue.shutDown();
    await h.done;
  });

  it('requeue: true retries with backoff and counts a requeue', async () => {
    vi.useFakeTimers();
    const h = start(() => ({ requeue: true }));
    h.queue.add('k');
    await vi.advanceTimersByTimeAsync(5 + 10);
    expect(h.calls).toHaveLength(3);
    expect(await value(h.metrics, 'controller_runtime_reconcile_total', { result: 'requeue' })).toBe(3);
    h.queue.shutDown();
    await h.done;
  });

  it('reconciles different keys in parallel up to the worker count, never one key twice at once', async () => {
    let running = 0;
    let most = 0;
    const active = new Set<string>();
    let overlap = false;
    const h = start(async (req) => {
      if (active.has(req.name)) overlap = true;
      active.add(req.name);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      active.delete(req.name);
    }, 3);
    for (const k of ['a', 'b', 'c', 'd', 'e']) h.queue.add(k);
    await new Promise((r) => setTimeout(r, 5));
    h.queue.add('a');
    h.queue.add('b');
    await until(() => h.calls.length === 7 && running === 0);
    expect(most).toBe(3);
    expect(overlap).toBe(false);
    expect(h.calls.map((c) => c.key).sort()).toEqual(['a', 'a', 'b', 'b', 'c', 'd', 'e']);
    h.queue.shutDown();
    await h.done;
  });

  it('on shutdown lets the running reconcile finish and starts no other', async () => {
    let release!: () => void;
    let finished = false;
    const h = start(async (req) => {
      if (req.name === 'slow') {
        await new Promise<void>((r) => (release = r));
        finished = true;
      }
    });
    h.queue.add('slow');
    h.queue.add('next');
    await flush();
    let loopDone = false;
    void h.done.then(() => (loopDone = true));
    h.queue.shutDown();
    await flush();
    expect(loopDone).toBe(false);
    release();
    await h.done;
    expect(finished).toBe(true);
    expect(h.calls.map((c) => c.key)).toEqual(['slow']);
  });

  it('tags every log line written during a reconcile with its reconcile ID, whichever logger writes it', async () => {
    const h = start(async (req, log) => {
      log.info('from the reconcile logger');
      await new Promise((r) => setTimeout(r, 1));
      h.log.child({ logger: 'client' }).info('from another logger');
      void req;
    });
    h.queue.add('ns/a');
    h.queue.add('ns/b');
    await until(() => h.lines.filter((l) => l.msg === 'from another logger').length === 2);
    h.log.info('outside');
    const byMessage = (msg: string) => h.lines.filter((l) => l.msg === msg);
    const ids = h.calls.map((c) => c.reconcileId);
    expect(new Set(ids).size).toBe(2);
    expect(byMessage('from the reconcile logger').map((l) => l.reconcileID)).toEqual(ids);
    expect(byMessage('from the reconcile logger')[0]).toMatchObject({ controller: 'test', namespace: 'ns', name: 'a' });
    expect(byMessage('from another logger').map((l) => l.reconcileID)).toEqual(ids);
    expect(byMessage('outside')[0]!.reconcileID).toBeUndefined();
    h.queue.shutDown();
    await h.done;
  });

  it("keeps the fields a reconcile adds off the next reconcile's lines, after an error and with work that outlives the reconcile", async () => {
    let tries = 0;
    let lateLogged!: () => void;
    const late = new Promise<void>((resolve) => (lateLogged = resolve));
    const h = start(async (req, log) => {
      if (req.name === 'a') {
        tries++;
        log.setBindings({ boundInA: 'yes' });
        await withLogContext({ contextOfA: 'yes' }, async () => {
          log.info('a working');
          // Work started by A that outlives it: its lines are A's, and must stay A's only.
          setTimeout(() => {
            h.log.child({ logger: 'late' }).info('a late');
            lateLogged();
          }, 20);
          await new Promise((r) => setTimeout(r, 1));
        });
        if (tries === 1) throw new Error('first try fails');
        return;
      }
      log.info('b start');
      await new Promise((r) => setTimeout(r, 40)); // A's late work logs meanwhile
      h.log.child({ logger: 'client' }).info('b other logger');
      log.info('b end');
    });
    h.queue.add('ns/a');
    h.queue.add('ns/b');
    await late;
    await until(() => tries === 2 && h.lines.some((l) => l.msg === 'b end') && h.lines.filter((l) => l.msg === 'Reconcile done').length === 2);
    h.queue.shutDown();
    await h.done;

    const [firstA, b, secondA] = h.calls;
    expect([firstA?.key, b?.key, secondA?.key]).toEqual(['ns/a', 'ns/b', 'ns/a']);
    const linesOf = (id: string) => h.lines.filter((l) => l.reconcileID === id);
    expect(linesOf(b!.reconcileId).map((l) => l.msg)).toEqual(['Reconciling', 'b start', 'b other logger', 'b end', 'Reconcile done']);
    for (const line of linesOf(b!.reconcileId)) {
      expect(line).not.toHaveProperty('boundInA');
      expect(line).not.toHaveProperty('contextOfA');
    }
    // A nested context adds to the reconcile's fields instead of replacing them.
    expect(h.lines.find((l) => l.msg === 'a late')).toMatchObject({ reconcileID: firstA!.reconcileId, contextOfA: 'yes' });
    expect(h.lines.find((l) => l.msg === 'a working')).toMatchObject({ reconcileID: firstA!.reconcileId, contextOfA: 'yes', boundInA: 'yes' });
    // The retry of A starts clean: its first line has none of the first try's fields.
    const retried = linesOf(secondA!.reconcileId);
    expect(retried[0]).toMatchObject({ msg: 'Reconciling', name: 'a' });
    expect(retried[0]).not.toHaveProperty('boundInA');
    expect(retried[0]).not.toHaveProperty('contextOfA');
  });

  it('logs a conflict retry as one short info line without stack traces, and still retries it', async () => {
    vi.useFakeTimers();
    // What the client throws for the API server's 409 on a stale resourceVersion.
    const conflict = () =>
      new ApiError(
        409,
        {
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: 'Operation cannot be fulfilled on widgets.example.com "a": the object has been modified; please apply your changes to the latest version and try again',
          reason: 'Conflict',
          details: { name: 'a', group: 'example.com', kind: 'widgets' },
          code: 409,
        },
        'PUT /apis/example.com/v1/namespaces/ns/widgets/a/status',
        'conflict',
      );
    let tries = 0;
    const h = start(() => {
      tries++;
      if (tries === 1) throw conflict();
      if (tries === 2) throw new Error('updating status', { cause: conflict() });
    });
    h.queue.add('ns/a');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tries).toBe(3);
    const retries = h.lines.filter((l) => l.msg === 'Reconcile conflict, retrying');
    expect(retries).toHaveLength(2);
    for (const line of retries) {
      expect(line).toMatchObject({ level: 'info', name: 'a', namespace: 'ns', reason: 'Conflict' });
      expect(line.error).toContain('the object has been modified');
      expect(JSON.stringify(line)).not.toContain('    at ');
      expect(JSON.stringify(line).length).toBeLessThan(600);
    }
    expect(h.lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(await value(h.metrics, 'controller_runtime_reconcile_errors_total', { controller: 'test' })).toBe(2);
    h.queue.shutDown();
    await h.done;
  });
});
