import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { controller, createManager, kinds, terminal, type Manager, type ManagerOptions } from '../../src/index.js';
import { onReconcile, type ReconcileRecord } from '../../src/observe/index.js';
import { readCRDs } from '../../src/testing/crds.js';
import { kubeConfigFor } from '../../src/testing/kubeconfig.js';
import { serveMemoryCluster, type ServedMemoryCluster } from '../../src/testing/memory/serve.js';
import { eventually } from '../fixtures/eventually.js';
import { startReceiver, type Receiver } from '../fixtures/otlp-receiver.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

vi.setConfig({ testTimeout: 30_000 });

// Reconciles exported as OpenTelemetry spans: a real manager, cache, client and HTTP
// transport on the memory cluster served on loopback, the OpenTelemetry SDK's OTLP/HTTP
// exporter, and a real OTLP receiver (an HTTP server decoding the exporter's JSON).

/**
 * A plain-HTTP relay on loopback in front of the served memory cluster that notes each
 * request's `traceparent` header: what an API server that traces sees.
 */
async function startRelay(target: ServedMemoryCluster) {
  const seen: { request: string; traceparent: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ request: `${req.method} ${req.url?.split('?')[0]}`, traceparent: req.headers.traceparent as string | undefined });
    const upstream = https.request(`${target.url}${req.url}`, { method: req.method, headers: req.headers, ca: target.caPem }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    seen,
    kubeConfig: () => kubeConfigFor({ server: url, caPem: target.caPem, user: 'relay', token: target.token }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Relay = Awaited<ReturnType<typeof startRelay>>;

let served: ServedMemoryCluster | undefined;
let receiver: Receiver | undefined;
let relay: Relay | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;
const OTEL_ENV = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_SERVICE_NAME'] as const;
const savedEnv = Object.fromEntries(OTEL_ENV.map((name) => [name, process.env[name]]));

beforeEach(async () => {
  // Only what a test sets turns tracing on.
  for (const name of OTEL_ENV) delete process.env[name];
  served = await serveMemoryCluster({ crds: readCRDs([WIDGET_CRD]) });
  receiver = await startReceiver();
  relay = await startRelay(served);
});

afterEach(async () => {
  mgr?.stop();
  await running?.catch(() => undefined);
  await relay?.close();
  await receiver?.close();
  await served?.close();
  served = receiver = relay = mgr = running = undefined;
  for (const name of OTEL_ENV) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
});

/** A Widget controller that applies a ConfigMap and reads a Secret that is not there; a Widget named `bad` fails. */
function startManager(options: Pick<ManagerOptions, 'otlpEndpoint' | 'logLevel' | 'logDestination'>): Manager {
  mgr = createManager({ kubeConfig: relay!.kubeConfig(), handleSignals: false, logLevel: 'silent', ...options });
  controller(mgr)
    .for(Widget)
    .owns(kinds.ConfigMap)
    .reconcile(async (widget, ctx) => {
      if (widget.metadata.name === 'bad') throw terminal(new Error('size must be even'));
      await ctx.apply(kinds.ConfigMap, { metadata: { name: `${widget.metadata.name}-cm` }, data: { size: String(widget.spec.size ?? 0) } });
      await ctx.client.get(kinds.Secret, 'absent', 'default');
    });
  running = mgr.start();
  return mgr;
}

/** Creates the Widgets, waits until each was reconciled, then stops the manager: its shutdown sends the batched spans. */
async function reconcileAndStop(m: Manager, ...names: string[]): Promise<ReconcileRecord[]> {
  const records: ReconcileRecord[] = [];
  const stop = onReconcile((r) => records.push(r));
  try {
    for (const name of names) await m.client.create(Widget, { metadata: { name, namespace: 'default' }, spec: { size: 1 } });
    await eventually('a reconcile of each Widget', () => names.every((name) => records.some((r) => r.name === name)));
  } finally {
    stop();
  }
  m.stop();
  await running;
  return records;
}

describe('reconcile spans over OTLP/HTTP', () => {
  it('export each reconcile as a span with its API calls as child spans, and send their traceparent to the API server', async () => {
    const m = startManager({ otlpEndpoint: receiver!.url });
    await reconcileAndStop(m, 'w');

    expect(receiver!.paths.every((p) => p === 'POST /v1/traces application/json')).toBe(true);
    const reconcile = receiver!.spans.find((s) => s.name === 'reconcile widget' && s.attributes['opgen.name'] === 'w' && s.attributes['opgen.result'] === 'done');
    expect(reconcile).toBeDefined();
    expect(reconcile!.parentSpanId ?? '').toBe('');
    expect(reconcile!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(reconcile!.attributes).toMatchObject({
      'opgen.controller': 'widget',
      'opgen.group': 'test.opgen.dev',
      'opgen.version': 'v1',
      'opgen.kind': 'Widget',
      'k8s.namespace.name': 'default',
      'opgen.name': 'w',
      'opgen.result': 'done',
    });
    // The working directory's package name, no OTEL_SERVICE_NAME being set.
    expect(reconcile!.service).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { name: string }).name);
    const triggers = (reconcile!.attributes['opgen.triggers'] as string[]).map((t) => JSON.parse(t) as unknown);
    expect(triggers).toContainEqual({ type: 'watch', event: 'create', kind: 'Widget', namespace: 'default', name: 'w' });

    const calls = receiver!.spans.filter((s) => s.parentSpanId === reconcile!.spanId);
    expect(calls.map((c) => [c.name, c.attributes['http.response.status_code'], c.status.code ?? 0])).toEqual([
      ['create ConfigMap', 201, 0],
      ['patch ConfigMap', 200, 0],
      // A 404 is an error of an HTTP client span (OpenTelemetry's HTTP conventions).
      ['get Secret', 404, 2],
    ]);
    for (const call of calls) expect(call.traceId).toBe(reconcile!.traceId);
    expect(calls[2]!.attributes).toMatchObject({ 'opgen.verb': 'get', 'opgen.kind': 'Secret', 'opgen.name': 'absent', 'url.path': '/api/v1/namespaces/default/secrets/absent', 'error.type': '404' });

    // Each call sent its own span's context: the API server's spans would be its children.
    const sent = (request: string) => relay!.seen.filter((s) => s.request === request && s.traceparent).map((s) => s.traceparent);
    expect(sent('GET /api/v1/namespaces/default/secrets/absent')).toContain(`00-${reconcile!.traceId}-${calls[2]!.spanId}-01`);
    expect(sent('POST /api/v1/namespaces/default/configmaps')).toContain(`00-${reconcile!.traceId}-${calls[0]!.spanId}-01`);
    // The cache's lists and watches belong to no reconcile: they carry none.
    expect(relay!.seen.filter((s) => s.request === 'GET /apis/test.opgen.dev/v1/widgets').every((s) => s.traceparent === undefined)).toBe(true);
  });

  it('mark a failed reconcile as an error with its message', async () => {
    const m = startManager({ otlpEndpoint: `${receiver!.url}/v1/traces` });
    await reconcileAndStop(m, 'ok', 'bad');
    const failed = receiver!.spans.find((s) => s.attributes['opgen.name'] === 'bad');
    expect(failed).toMatchObject({ name: 'reconcile widget', status: { code: 2, message: 'size must be even' } });
    expect(failed!.attributes).toMatchObject({ 'opgen.result': 'error', 'opgen.error.terminal': true });
  });

  it('turn on with OTEL_EXPORTER_OTLP_ENDPOINT and name the service by OTEL_SERVICE_NAME', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver!.url;
    process.env.OTEL_SERVICE_NAME = 'widget-operator';
    await reconcileAndStop(startManager({}), 'w');
    expect(receiver!.spans.find((s) => s.name === 'reconcile widget')).toMatchObject({ service: 'widget-operator' });
  });

  it('say in the log that the collector cannot be reached, and stop all the same', async () => {
    const lines: { msg: string; logger?: string; error?: string }[] = [];
    // A port nothing listens on any more.
    const gone = await startReceiver();
    await gone.close();
    const m = startManager({ otlpEndpoint: gone.url, logLevel: 'info', logDestination: { write: (l: string) => void lines.push(JSON.parse(l)) } });
    await reconcileAndStop(m, 'w');
    expect(lines.find((l) => l.msg === 'Exporting reconcile spans failed')).toMatchObject({ logger: 'tracing', error: expect.stringMatching(/ECONNREFUSED/) });
    expect(lines.at(-1)?.msg).toBe('Manager stopped');
  });

  it('send nothing, and no traceparent, without an endpoint, even while records are watched', async () => {
    // Records are watched (as `opgen dev` does), nothing traces.
    const records = await reconcileAndStop(startManager({}), 'w');
    expect(records.find((r) => r.name === 'w')?.calls.map((c) => c.verb)).toEqual(['create', 'patch', 'get']);
    expect(relay!.seen.some((s) => s.request === 'POST /api/v1/namespaces/default/configmaps')).toBe(true);
    expect(relay!.seen.filter((s) => s.traceparent !== undefined)).toEqual([]);
    expect(receiver!.paths).toEqual([]);
  });
});
