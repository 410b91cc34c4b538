import { connect, type Socket } from 'node:net';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import { selfSignedCertificate } from '../../src/certs/self-signed-cert.js';
import { validatingHandler } from '../../src/webhook/admission.js';
import { renewalStep } from '../../src/webhook/builtin-certs.js';
import { webhookMetrics } from '../../src/webhook/metrics.js';
import { createWebhookServer } from '../../src/webhook/server.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function open(port: number): Promise<{ socket: Socket; closed: Promise<number> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      const began = performance.now();
      const closed = new Promise<number>((done) => socket.once('close', () => done(performance.now() - began)));
      resolve({ socket, closed });
    });
    socket.on('error', () => {});
    socket.resume();
  });
}

describe('the webhook server\'s connection cap', () => {
  it('closes connections past maxConnections at once, keeps the others, and warns once', async () => {
    const lines: any[] = [];
    const server = createWebhookServer({
      host: '127.0.0.1',
      port: 0,
      certificate: { current: selfSignedCertificate(), files: null, watch: () => () => {} },
      log: createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } }),
      metrics: webhookMetrics(new Registry()),
      limits: { maxConnections: 3 },
      shutdown: { delayMs: 0, drainMs: 0 },
    });
    server.register('/validate', validatingHandler({}));
    const listening = await server.start();
    closers.push(() => listening.close());
    const held = [await open(listening.port), await open(listening.port), await open(listening.port)];
    const refused = [await open(listening.port), await open(listening.port)];
    for (const { closed } of refused) expect(await closed).toBeLessThan(1_000);
    const stillOpen = await Promise.race([Promise.any(held.map((h) => h.closed)).then(() => false), new Promise((resolve) => setTimeout(() => resolve(true), 300))]);
    expect(stillOpen).toBe(true);
    expect(lines.filter((l) => l.msg === 'The webhook server refuses connections: it holds as many as it may')).toEqual([expect.objectContaining({ maxConnections: 3, refused: 1 })]);
    for (const { socket } of held) socket.destroy();
  });
});

describe('the log of a built-in certificate renewal', () => {
  const ca = { caPem: 'ca', caKeyPem: 'ca-key' };
  const leaf = { certPem: 'leaf', keyPem: 'leaf-key' };
  const next = { caPem: 'next', caKeyPem: 'next-key', since: 1 };

  it('names each step of a rotation for what it is', () => {
    expect(renewalStep({ ...ca, ...leaf }, { ...ca, ...leaf, next })).toBe('next CA trusted');
    // A leaf renewed while the next CA waits for its turn is no new trust.
    expect(renewalStep({ ...ca, ...leaf, next }, { ...ca, certPem: 'leaf-2', keyPem: 'k', next })).toBe('serving certificate renewed');
    expect(renewalStep({ ...ca, ...leaf, next }, { caPem: 'next', caKeyPem: 'next-key', certPem: 'leaf-3', keyPem: 'k', previousCaPem: 'ca' })).toBe('next CA signing');
    expect(renewalStep({ ...ca, ...leaf, previousCaPem: 'old' }, { ...ca, ...leaf })).toBe('expired previous CA dropped');
  });
});
