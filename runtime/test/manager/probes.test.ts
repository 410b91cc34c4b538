import { afterEach, describe, expect, it } from 'vitest';
import { listen, type HttpServer } from '../../src/http/http-server.js';
import { probesHandler, type Checks } from '../../src/manager/probes.js';

let server: HttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function get(path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://${server!.address}${path}`);
  return { status: response.status, body: await response.text() };
}

describe('probe endpoints', () => {
  it('answer ok while every check passes and list the failing checks otherwise', async () => {
    let synced = false;
    const readyz: Checks = new Map([
      ['ping', () => {}],
      [
        'cache-sync',
        () => {
          if (!synced) throw new Error('caches have not synced yet');
        },
      ],
    ]);
    server = await listen({ host: '127.0.0.1', port: 0 }, probesHandler({ healthz: new Map([['ping', () => {}]]), readyz }));
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok' });
    expect(await get('/readyz')).toEqual({ status: 500, body: '[-]cache-sync failed: caches have not synced yet\nreadyz check failed\n' });
    expect((await get('/readyz/ping')).status).toBe(200);
    expect((await get('/readyz/cache-sync')).status).toBe(500);
    synced = true;
    expect(await get('/readyz')).toEqual({ status: 200, body: 'ok' });
  });

  it('run async checks and answer 404 for unknown paths and checks', async () => {
    const healthz: Checks = new Map([['slow', () => new Promise<void>((_, reject) => setTimeout(() => reject(new Error('no')), 5))]]);
    server = await listen({ host: '127.0.0.1', port: 0 }, probesHandler({ healthz, readyz: new Map() }));
    expect(await get('/healthz')).toMatchObject({ status: 500, body: '[-]slow failed: no\nhealthz check failed\n' });
    expect((await get('/healthz/other')).status).toBe(404);
    expect((await get('/metrics')).status).toBe(404);
  });

  it('fail /readyz and each /readyz/<check> from the stop signal on, leaving /healthz alone', async () => {
    const stopping = new AbortController();
    server = await listen({ host: '127.0.0.1', port: 0 }, probesHandler({ healthz: new Map([['ping', () => {}]]), readyz: new Map([['webhook', () => {}]]), stopping: stopping.signal }));
    expect(await get('/readyz/webhook')).toEqual({ status: 200, body: 'ok' });
    stopping.abort();
    expect(await get('/readyz')).toEqual({ status: 500, body: '[-]shutdown failed: the process is shutting down\nreadyz check failed\n' });
    expect((await get('/readyz/webhook')).status).toBe(500);
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok' });
  });
});
