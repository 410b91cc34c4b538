import { describe, expect, it } from 'vitest';
import { createLogger, withLogContext } from '../../src/log/index.js';

function capture(format: 'json' | 'pretty') {
  const out: string[] = [];
  const log = createLogger({ format, level: 'info', destination: { write: (s: string) => void out.push(s) } });
  return { log, out };
}

describe('logger', () => {
  it('writes one JSON object a line with a string level and an ISO time', () => {
    const { log, out } = capture('json');
    log.child({ controller: 'demo' }).info({ name: 'a' }, 'Reconciling');
    const line = JSON.parse(out[0]!);
    expect(line).toMatchObject({ level: 'info', controller: 'demo', name: 'a', msg: 'Reconciling' });
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });

  it('in pretty mode writes readable lines with the fields and the error stack', () => {
    const { log, out } = capture('pretty');
    withLogContext({ reconcileID: 'r-1' }, () => log.child({ logger: 'cache' }).error({ err: new Error('boom'), kind: 'Pod' }, 'Watch failed'));
    const [first, ...stack] = out[0]!.trimEnd().split('\n');
    expect(first!.split('\t').slice(1)).toEqual(['ERROR', 'cache', 'Watch failed', '{"reconcileID":"r-1","kind":"Pod"}']);
    expect(stack[0]).toBe('Error: boom');
    expect(stack.length).toBeGreaterThan(1);
  });

  it('adds the reconcile ID to lines written inside a log context only', async () => {
    const { log, out } = capture('json');
    await withLogContext({ reconcileID: 'r-2' }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      log.info('inside');
    });
    log.info('outside');
    expect(out.map((l) => JSON.parse(l).reconcileID)).toEqual(['r-2', undefined]);
  });

  it('keeps the fields of one call off the later lines of the same reconcile', () => {
    const { log, out } = capture('json');
    withLogContext({ reconcileID: 'r-3' }, () => {
      log.child({ controller: 'cronjob' }).error({ err: new Error('boom'), job: 'a' }, 'create failed');
      log.info('created Job');
      log.info({ done: true }, 'Reconcile done');
    });
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.map((l) => l.reconcileID)).toEqual(['r-3', 'r-3', 'r-3']);
    expect(Object.keys(lines[1]).sort()).toEqual(['level', 'msg', 'pid', 'reconcileID', 'time']);
    expect(lines[2]).not.toHaveProperty('err');
    expect(lines[2]).not.toHaveProperty('controller');
    expect(lines[2].done).toBe(true);
  });
});
