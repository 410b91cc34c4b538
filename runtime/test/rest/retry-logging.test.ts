import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTransport } from '../../src/rest/transport.js';

// A loopback server standing in for an API server that fails requests: the transport's
// retries of them must be visible (each at debug, a warning at most every 30 s), never silent.
let server: Server;
let failuresLeft = 0;
let kubeConfig: KubeConfig;

beforeAll(async () => {
  server = createServer((_req, res) => {
    if (failuresLeft-- > 0) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'conversion webhook for test.opgen.dev/v1 failed', reason: 'InternalError', code: 500 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'ConfigMapList', items: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

it('logs each retried 5xx at debug and warns once per 30 s, and the call still succeeds', async () => {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const record = (level: string) => (fields: object, msg: string) => void lines.push({ level, msg, fields: fields as Record<string, unknown> });
  const logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  const transport = createTransport(kubeConfig, { logger });
  failuresLeft = 3;
  await expect(transport.request({ method: 'GET', path: '/api/v1/configmaps' })).resolves.toMatchObject({ kind: 'ConfigMapList' });

  const retries = lines.filter((l) => l.msg === 'Retrying a request the API server failed');
  expect(retries.map((l) => [l.level, l.fields.status, l.fields.attempt])).toEqual([
    ['debug', 500, 1],
    ['debug', 500, 2],
    ['debug', 500, 3],
  ]);
  expect(String(retries[0]!.fields.message)).toContain('conversion webhook');
  const warnings = lines.filter((l) => l.level === 'warn');
  expect(warnings.map((l) => l.msg)).toEqual(['The API server is failing requests; retrying']);
});

it('leaves a caller that backs off itself (an informer\'s list) to its own backoff while the server cannot be reached', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const unreachable = new KubeConfig();
  unreachable.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const retries: string[] = [];
  const transport = createTransport(unreachable, { observer: { response: () => {}, retry: (_method, code) => void retries.push(code) } });
  const own = await transport.request({ method: 'GET', path: '/api/v1/configmaps', ownBackoff: true }).catch((e: unknown) => e);
  expect((own as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  expect(retries).toEqual([]);
  // Any other GET is retried through a refused connection (nothing was sent), as client-go does.
  await transport.request({ method: 'GET', path: '/api/v1/configmaps', timeoutMs: 700 }).catch(() => undefined);
  expect(retries.length).toBeGreaterThan(0);
});

it('retries a caller with its own backoff when the server answers 5xx: it is reachable', async () => {
  const transport = createTransport(kubeConfig);
  failuresLeft = 1;
  await expect(transport.request({ method: 'GET', path: '/api/v1/configmaps', ownBackoff: true })).resolves.toMatchObject({ kind: 'ConfigMapList' });
});
