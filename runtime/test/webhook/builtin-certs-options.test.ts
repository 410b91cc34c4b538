import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import { builtInCertificate } from '../../src/webhook/builtin-certs.js';

// What serveWebhooks refuses before it touches the cluster: a caller of the runtime (not
// the manager's flags, which refuse it earlier) asking for a CA that expires before the
// serving certificate it signs.

describe('the built-in certificates refuse', () => {
  it('a CA shorter-lived than the serving certificate, naming both lifetimes', async () => {
    const options = { secret: { namespace: 'default', name: 'webhook-server-cert' }, hosts: ['127.0.0.1'], validMs: 60_000, caValidMs: 30_000 };
    await expect(builtInCertificate(new KubeConfig(), options, createLogger({ level: 'silent' }))).rejects.toThrow(
      /^the webhook CA's validity \(30000ms\) must not be shorter than the serving certificate's \(60000ms\)$/,
    );
  });
});
