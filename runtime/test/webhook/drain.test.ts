import { connect } from 'node:tls';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import { selfSignedCertificate } from '../../src/certs/self-signed-cert.js';
import { validatingHandler } from '../../src/webhook/admission.js';
import { parseGoDuration } from '../../src/webhook/duration.js';
import { webhookMetrics } from '../../src/webhook/metrics.js';
import { createWebhookServer, type WebhookServer } from '../../src/webhook/server.js';
import type { WebhookContext } from '../../src/webhook/types.js';
import { post } from './post.js';

const pair = selfSignedCertificate();
const PATH = '/validate-test-opgen-dev-v1alpha2-shelf';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function review(name: string): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: `uid-${name}`, kind: { group: 'test.opgen.dev', version: 'v1alpha2', kind: 'Shelf' }, resource: { group: 'test.opgen.dev', version: 'v1alpha2', resource: 'shelves' }, operation: 'CREATE', userInfo: { username: 'alice' }, object: { metadata: { name } } },
  });
}

async function serverWith(handler: (context: WebhookContext) => Promise<void>, stopping = new AbortController(), shutdown = { delayMs: 0, drainMs: 5_000 }): Promise<{ server: WebhookServer; stopping: AbortController; close(): Promise<void>; lines: any[] }> {
  const lines: any[] = [];
  const server = createWebhookServer({
    host: '127.0.0.1',
    port: 0,
    certificate: { current: pair, files: null, watch: () => () => {} },
    log: createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } }),
    metrics: webhookMetrics(new Registry()),
    stopping: stopping.signal,
    shutdown,
  });
  server.register(PATH, validatingHandler({ create: (_object, _request, context) => handler(context) }));
  const listening = await server.start();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    stopping.abort();
    await listening.close();
  };
  closers.push(close);
  return { server, stopping, close, lines };
}

describe('the webhook server on shutdown', () => {
  it('reports not ready at the signal, answers the admissions in flight, then refuses connections', async () => {
    const { server, close, stopping, lines } = await serverWith(() => new Promise((resolve) => setTimeout(resolve, 800)), undefined, { delayMs: 300, drainMs: 5_000 });
    await server.ready();
    const inFlight = [post(`${server.url}${PATH}`, pair.certPem, review('one')), post(`${server.url}${PATH}`, pair.certPem, review('two'))];
    await new Promise((resolve) => setTimeout(resolve, 200));
    stopping.abort();
    await expect(server.ready()).rejects.toThrow('the webhook server is shutting down');
    const closing = close();
    // Within the shutdown delay new connections are still served, and told to close.
    const late = await post(`${server.url}${PATH}`, pair.certPem, review('late'));
    expect(late.status).toBe(200);
    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.json.response.allowed)).toEqual([true, true]);
    await closing;
    await expect(post(`${server.url}${PATH}`, pair.certPem, review('after'))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(lines.find((l) => l.msg.startsWith('Shutting down the webhook server'))?.inFlight).toBe(2);
  });

  it('cuts what is still in flight at the drain bound', async () => {
    const { server, close } = await serverWith(() => new Promise(() => {}), undefined, { delayMs: 0, drainMs: 500 });
    const hung = post(`${server.url}${PATH}`, pair.certPem, review('hung')).then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => error.code,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const began = performance.now();
    await close();
    expect(performance.now() - began).toBeLessThan(2_000);
    expect(await hung).toBe('ECONNRESET');
  });

  it('drops a connection that has not finished its TLS handshake when the drain ends', async () => {
    const { server, close } = await serverWith(async () => {}, undefined, { delayMs: 0, drainMs: 300 });
    const port = Number(new URL(server.url!).port);
    const { connect: tcp } = await import('node:net');
    const socket = tcp(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => {});
    const began = performance.now();
    await close();
    await closed;
    expect(performance.now() - began).toBeLessThan(2_000);
  });
});

describe('a handler\'s context', () => {
  it('aborts the signal once the API server\'s ?timeout= passes, with a logger naming the request', async () => {
    let seen: { afterMs: number; reason: string } | undefined;
    const { server, lines } = await serverWith(async ({ signal, log }) => {
      const began = performance.now();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      seen = { afterMs: performance.now() - began, reason: (signal.reason as Error).message };
      log.info('gave up');
    });
    const answer = await post(`${server.url}${PATH}?timeout=1s`, pair.certPem, review('slow'));
    expect(answer.status).toBe(200);
    expect(seen?.reason).toBe("the API server's timeout of 1000 ms passed");
    expect(seen?.afterMs).toBeGreaterThan(900);
    expect(lines.find((l) => l.msg === 'gave up')).toMatchObject({ webhook: PATH, uid: 'uid-slow' });
  });

  it('aborts the signal when the caller hangs up', async () => {
    let aborted: string | undefined;
    const { server } = await serverWith(async ({ signal }) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      aborted = (signal.reason as Error).message;
    });
    const port = Number(new URL(server.url!).port);
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
      const body = review('gone');
      socket.write(`POST ${PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      setTimeout(() => socket.destroy(), 200);
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(aborted).toBe('the API server closed the connection');
  });
});

describe('parseGoDuration', () => {
  it('reads the durations client-go writes and refuses anything else', () => {
    expect(parseGoDuration('10s')).toBe(10_000);
    expect(parseGoDuration('1m30s')).toBe(90_000);
    expect(parseGoDuration('1.5s')).toBe(1_500);
    expect(parseGoDuration('250ms')).toBe(250);
    expect(parseGoDuration('10')).toBeUndefined();
    expect(parseGoDuration('')).toBeUndefined();
    expect(parseGoDuration(null)).toBeUndefined();
  });
});
