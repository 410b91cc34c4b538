import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controller, createManager, kinds } from '../../src/index.js';
import { onReconcile, type ReconcileRecord } from '../../src/observe/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';
import { startReceiver, type Receiver } from '../fixtures/otlp-receiver.js';

// Reconcile spans of a manager against a real kube-apiserver, sent by the OpenTelemetry
// SDK's OTLP/HTTP exporter to a real receiver on loopback.

let cp: ControlPlane;
let receiver: Receiver;

beforeAll(async () => {
  cp = await startControlPlane();
  await installCRDs(cp.kubeConfig, WIDGET_CRD);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await cp?.stop();
});

describe('reconcile spans against a real API server', () => {
  it('a reconcile span with a child span per API call, status codes as the API server answered', async () => {
    const mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent', otlpEndpoint: receiver.url });
    controller(mgr)
      .for(Widget)
      .reconcile(async (widget, ctx) => {
        await ctx.apply(kinds.ConfigMap, { metadata: { name: `${widget.metadata.name}-cm` }, data: {} });
        await ctx.client.patchStatus(Widget, widget, { status: { observedSize: widget.spec.size ?? 0 } });
      });
    const records: ReconcileRecord[] = [];
    const stop = onReconcile((r) => records.push(r));
    const running = mgr.start();
    try {
      await mgr.client.create(Widget, { metadata: { name: 'traced', namespace: 'default' }, spec: { size: 2 } });
      await eventually('the reconcile', () => records.find((r) => r.name === 'traced' && r.result.type === 'done'));
    } finally {
      stop();
      mgr.stop();
      await running;
    }

    const reconcile = receiver.spans.find((s) => s.name === 'reconcile widget' && s.attributes['opgen.name'] === 'traced' && s.attributes['opgen.result'] === 'done');
    expect(reconcile?.attributes).toMatchObject({ 'opgen.kind': 'Widget', 'k8s.namespace.name': 'default', 'opgen.controller': 'widget' });
    const calls = receiver.spans.filter((s) => s.parentSpanId === reconcile!.spanId);
    expect(calls.map((c) => c.traceId)).toEqual(calls.map(() => reconcile!.traceId));
    // ctx.apply of a ConfigMap no informer caches: a read (404: not there yet), a create, the
    // apply of its fields; then the status write to the subresource. A 404 is an error of an
    // HTTP client span (OpenTelemetry's HTTP conventions).
    expect(calls.map((c) => [c.name, c.attributes['http.response.status_code'], c.status.code ?? 0])).toEqual([
      ['get ConfigMap', 404, 2],
      ['create ConfigMap', 201, 0],
      ['patch ConfigMap', 200, 0],
      ['patch Widget/status', 200, 0],
    ]);
    expect(calls[3]!.attributes['url.path']).toBe('/apis/test.opgen.dev/v1/namespaces/default/widgets/traced/status');
  });
});
