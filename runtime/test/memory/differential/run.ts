import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../../../src/rest/errors.js';
import type { HttpRequest, Transport } from '../../../src/rest/transport.js';
import type { EventsStep, Ref, RequestStep, Scenario, SettleStep, Step, WatchStep } from './scenario.js';

/** What one step did, as recorded (before normalization). */
export interface Outcome {
  /** The step, e.g. `PATCH /apis/...` with `{ns}` left in, so both sides name it alike. */
  step: string;
  /**
   * The HTTP status of an error; `2xx` for success, since a `Transport` resolves every
   * 2xx alike (201 Created and 200 OK are one to the runtime).
   */
  status?: number | '2xx';
  body?: unknown;
  events?: Array<{ type: string; object: unknown }>;
  /** A settle step: whether the condition held before the deadline. */
  settled?: boolean;
  /** A failure that is no HTTP answer (the memory cluster throwing, a watch that broke). */
  error?: string;
}

/**
 * How long a side gets for what happens asynchronously: an `events` step's events, a
 * `settle` step's condition (its own `timeoutMs` first). The real control plane on a loaded
 * machine needs seconds; the memory cluster does its work within the request or at once
 * after it, so whatever has not come within a second will not come.
 */
export interface Patience {
  eventsMs: number;
  /** Upper bound of every settle step on this side. */
  settleMs: number;
}

export const REAL_PATIENCE: Patience = { eventsMs: 15_000, settleMs: 60_000 };
export const MEMORY_PATIENCE: Patience = { eventsMs: 1_000, settleMs: 2_000 };

/** After a watch delivered the events awaited, how long extra ones may take to show. */
const QUIET_MS = 300;
const SETTLE_POLL_MS = 250;

/** Creates the scenario's namespace (not recorded: it is the stage, not the play). */
export async function createNamespace(transport: Transport, namespace: string): Promise<void> {
  await transport.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
}

/** Runs `scenario`'s steps in order against `transport`, in `namespace`; never throws for an API error. */
export async function runScenario(transport: Transport, scenario: Scenario, namespace: string, patience: Patience): Promise<Outcome[]> {
  const responses = new Map<string, unknown>();
  const watches = new Map<string, OpenWatch>();
  const resolve = (value: unknown): unknown => substitute(value, namespace, responses);
  const outcomes: Outcome[] = [];
  try {
    for (const step of scenario.steps) outcomes.push(await runStep(transport, step, resolve, responses, watches, patience));
  } finally {
    for (const watch of watches.values()) watch.close();
  }
  return outcomes;
}

async function runStep(
  transport: Transport,
  step: Step,
  resolve: (value: unknown) => unknown,
  responses: Map<string, unknown>,
  watches: Map<string, OpenWatch>,
  patience: Patience,
): Promise<Outcome> {
  switch (step.op) {
    case 'watch':
      return openWatch(transport, step, resolve, watches);
    case 'events':
      return collectEvents(step, watches, patience.eventsMs);
    case 'settle':
      return settle(transport, step, resolve, Math.min(step.timeoutMs ?? patience.settleMs, patience.settleMs));
    case 'pause':
      await sleep(step.ms);
      return { step: `PAUSE ${step.ms} ms` };
    default: {
      const outcome = await send(transport, toRequest(step, resolve), describe(step));
      if (step.name) responses.set(step.name, outcome.body);
      return step.quiet ? { step: outcome.step, status: outcome.status } : outcome;
    }
  }
}

function describe(step: RequestStep | WatchStep): string {
  const query = step.query ? ` ${JSON.stringify(step.query)}` : '';
  return `${'method' in step ? step.method : 'WATCH'} ${step.path}${query}`;
}

function toRequest(step: RequestStep, resolve: (value: unknown) => unknown): HttpRequest {
  const request: HttpRequest = { method: step.method, path: resolve(step.path) as string };
  if (step.query) request.query = resolve(step.query) as HttpRequest['query'];
  if (step.body !== undefined) request.body = resolve(step.body);
  if (step.contentType) request.contentType = step.contentType;
  // A scenario's request is answered at once or not at all; no retry may hide a 5xx.
  request.timeoutMs = 30_000;
  return request;
}

async function send(transport: Transport, request: HttpRequest, step: string): Promise<Outcome> {
  try {
    const body = await transport.request<unknown>(request);
    return { step, status: '2xx', body };
  } catch (error) {
    return failure(step, error);
  }
}

/** An API error is an outcome like any other; anything else is recorded as the error it is. */
function failure(step: string, error: unknown): Outcome {
  if (error instanceof ApiError) return { step, status: error.code, body: error.status ?? error.message };
  return { step, error: error instanceof Error ? error.message : String(error) };
}

interface OpenWatch {
  events: Array<{ type: string; object: unknown }>;
  ended: string | undefined;
  changed: () => Promise<void>;
  close(): void;
}

async function openWatch(
  transport: Transport,
  step: WatchStep,
  resolve: (value: unknown) => unknown,
  watches: Map<string, OpenWatch>,
): Promise<Outcome> {
  const abort = new AbortController();
  const query = { ...(resolve(step.query ?? {}) as Record<string, string>), watch: 'true' };
  let stream: Readable;
  try {
    stream = await transport.stream({ method: 'GET', path: resolve(step.path) as string, query, signal: abort.signal, timeoutMs: 0 });
  } catch (error) {
    return failure(describe(step), error);
  }
  const watch: OpenWatch = {
    events: [],
    ended: undefined,
    changed: () => new Promise((done) => waiters.push(done)),
    close: () => {
      abort.abort();
      stream.destroy();
    },
  };
  const waiters: Array<() => void> = [];
  const wake = (): void => {
    for (const done of waiters.splice(0)) done();
  };
  let buffer = '';
  stream.on('data', (chunk: Buffer | string) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) watch.events.push(JSON.parse(line) as { type: string; object: unknown });
    }
    wake();
  });
  stream.on('end', () => {
    watch.ended ??= 'the watch ended';
    wake();
  });
  stream.on('error', (error) => {
    if (!abort.signal.aborted) watch.ended ??= `the watch broke: ${error.message}`;
    wake();
  });
  watches.set(step.name, watch);
  return { step: describe(step), status: '2xx' };
}

async function collectEvents(step: EventsStep, watches: Map<string, OpenWatch>, timeoutMs: number): Promise<Outcome> {
  const label = `EVENTS ${step.watch} (${step.count})`;
  const watch = watches.get(step.watch);
  if (!watch) return { step: label, error: `no open watch ${step.watch} (did opening it fail?)` };
  const deadline = Date.now() + timeoutMs;
  while (watch.events.length < step.count && !watch.ended && Date.now() < deadline) {
    await Promise.race([watch.changed(), sleep(Math.max(0, deadline - Date.now()))]);
  }
  await sleep(QUIET_MS);
  const events = watch.events.splice(0);
  const outcome: Outcome = { step: label, events };
  if (events.length < step.count) outcome.error = watch.ended ?? `only ${events.length} events in time`;
  if (!step.keepOpen) {
    watch.close();
    watches.delete(step.watch);
  }
  return outcome;
}

async function settle(transport: Transport, step: SettleStep, resolve: (value: unknown) => unknown, timeoutMs: number): Promise<Outcome> {
  const path = resolve(step.path) as string;
  const label = `SETTLE ${step.path} ${JSON.stringify(step.until)}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await send(transport, { method: 'GET', path, timeoutMs: 10_000 }, label);
    const until = step.until;
    const value = until === 'gone' ? undefined : field(outcome.body, until.field);
    const settled =
      until === 'gone' ? outcome.status === 404 : outcome.status === '2xx' && ('exists' in until ? (value !== undefined) === until.exists : equalJson(value, until.equals));
    if (settled || Date.now() >= deadline) return step.quiet ? { step: outcome.step, status: outcome.status, settled, body: value } : { ...outcome, settled };
    await sleep(SETTLE_POLL_MS);
  }
}

function equalJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The value at a dotted path (`metadata.resourceVersion`, `items.0.metadata.name`). */
export function field(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && '$ref' in value;
}

/** Replaces `{ns}` in strings and every {@link Ref} with the value it points at. */
function substitute(value: unknown, namespace: string, responses: Map<string, unknown>): unknown {
  if (typeof value === 'string') return value.replaceAll('{ns}', namespace);
  if (isRef(value)) {
    if (!responses.has(value.$ref)) throw new Error(`ref to step ${value.$ref}, which has not run or has no name`);
    return field(responses.get(value.$ref), value.path);
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, namespace, responses));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, namespace, responses)]));
  }
  return value;
}
