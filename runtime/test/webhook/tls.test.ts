import tls from 'node:tls';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/certs/self-signed-cert.js';
import type { TlsSettings } from '../../src/http/tls.js';
import { createLogger } from '../../src/log/index.js';
import { managerOptionsFromArgs } from '../../src/manager/args.js';
import { serveMetrics } from '../../src/manager/metrics-server.js';
import type { Cluster } from '../../src/rest/cluster.js';
import { webhookMetrics } from '../../src/webhook/metrics.js';
import { createWebhookServer } from '../../src/webhook/server.js';

// The webhook and metrics servers' TLS, seen by a real Node.js TLS client: which protocol
// versions, cipher suites and ALPN protocols a handshake ends with, for each setting.

const pair = selfSignedCertificate();
const log = createLogger({ level: 'silent' });
const closers: (() => Promise<void>)[] = [];

/** The webhook server on a free loopback port, with `settings`; its port. */
async function webhookServer(settings?: TlsSettings): Promise<number> {
  const server = createWebhookServer({
    host: '127.0.0.1',
    port: 0,
    certificate: { current: pair, files: null, watch: () => () => {} },
    log,
    metrics: webhookMetrics(new Registry()),
    tls: settings,
  });
  const listening = await server.start();
  closers.push(() => listening.close());
  return listening.port;
}

interface Handshake {
  protocol: string | null;
  alpn: string | false | null;
  cipher: string;
}

/** A TLS handshake with `options`: what it agreed, or the error that ended it. */
function handshake(port: number, options: tls.ConnectionOptions = {}): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca: pair.certPem, servername: 'localhost', rejectUnauthorized: false, ...options }, () => {
      resolve({ protocol: socket.getProtocol(), alpn: socket.alpnProtocol, cipher: socket.getCipher().standardName });
      socket.end();
    });
    socket.on('error', reject);
  });
}

/** A client that offers TLS 1.1 only; its own OpenSSL would refuse it at the default security level. */
const tls11 = { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' } as const;
const tls12 = { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' } as const;

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('the webhook server\'s TLS', () => {
  const processMinimum = tls.DEFAULT_MIN_VERSION;
  // A process started with --tls-min-v1.0 (or NODE_OPTIONS carrying it): the server's own minimum must still hold.
  beforeAll(() => void (tls.DEFAULT_MIN_VERSION = 'TLSv1'));
  afterAll(() => void (tls.DEFAULT_MIN_VERSION = processMinimum));

  it('refuses TLS 1.1 and accepts TLS 1.2 by default, whatever the process default', async () => {
    const port = await webhookServer();
    await expect(handshake(port, tls11)).rejects.toThrow();
    expect((await handshake(port, tls12)).protocol).toBe('TLSv1.2');
  });

  it('with a minimum of TLS 1.3, refuses TLS 1.2', async () => {
    const port = await webhookServer({ minVersion: 'VersionTLS13' });
    await expect(handshake(port, tls12)).rejects.toThrow();
    expect((await handshake(port)).protocol).toBe('TLSv1.3');
  });

  it('does not negotiate HTTP/2 by ALPN: an h2 client gets http/1.1', async () => {
    const port = await webhookServer();
    expect((await handshake(port, { ALPNProtocols: ['h2', 'http/1.1'] })).alpn).toBe('http/1.1');
    await expect(handshake(port, { ALPNProtocols: ['h2'] })).rejects.toThrow(/ALPN|protocol/i);
  });

  it('offers only the cipher suites named, by their IANA names', async () => {
    const port = await webhookServer({ cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384'] });
    expect((await handshake(port, tls12)).cipher).toMatch(/^TLS_ECDHE_(RSA|ECDSA)_WITH_AES_256_GCM_SHA384$/);
    await expect(handshake(port, { ...tls12, ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256' })).rejects.toThrow();
  });
});

describe('the secure metrics server\'s TLS (the same settings)', () => {
  it('with the manager\'s --tls-min-version=VersionTLS13, refuses TLS 1.2 and offers no HTTP/2', async () => {
    const options = managerOptionsFromArgs(['--tls-min-version=VersionTLS13']);
    // The handshake comes before any review: the cluster is never called.
    const cluster = { transport: {} } as unknown as Cluster;
    const server = await serveMetrics({ host: '127.0.0.1', port: 0 }, new Registry(), { cluster, log, tls: options.tls });
    closers.push(() => server.close());
    await expect(handshake(server.port, tls12)).rejects.toThrow();
    const agreed = await handshake(server.port, { ALPNProtocols: ['h2', 'http/1.1'] });
    expect(agreed).toMatchObject({ protocol: 'TLSv1.3', alpn: 'http/1.1' });
  });
});

describe('the manager\'s TLS flags', () => {
  it('read kube components\' names, and refuse unknown values with a one-line error', () => {
    expect(managerOptionsFromArgs(['--tls-min-version', 'VersionTLS13', '--tls-cipher-suites', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256']).tls).toEqual({
      minVersion: 'VersionTLS13',
      cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256'],
    });
    expect(managerOptionsFromArgs([]).tls).toBeUndefined();
    expect(() => managerOptionsFromArgs(['--tls-min-version=VersionTLS11'])).toThrow(/^--tls-min-version: TLS minimum version must be one of VersionTLS12, VersionTLS13, not "VersionTLS11"$/);
    expect(() => managerOptionsFromArgs(['--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA'])).toThrow(/^--tls-cipher-suites: unknown or unsupported TLS cipher suite "TLS_RSA_WITH_RC4_128_SHA"/);
  });
});
