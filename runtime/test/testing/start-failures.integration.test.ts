import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { controlPlaneChildren } from './helpers.js';

/**
 * Each failed start must leave nothing behind: the control plane's temp dir goes under a
 * TMPDIR of the test's own, which must end up empty, and no child process may survive.
 */
describe('a control plane that cannot start', () => {
  const saved = { TMPDIR: process.env.TMPDIR, KUBEBUILDER_ASSETS: process.env.KUBEBUILDER_ASSETS };
  let scratch: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'opgen-start-failures-'));
    process.env.TMPDIR = scratch;
  });
  afterEach(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await eventually('no control plane process left', () => controlPlaneChildren().length === 0, 5000);
    expect(readdirSync(scratch)).toEqual([]);
    rmSync(scratch, { recursive: true });
  });

  it('names a KUBEBUILDER_ASSETS that is not a directory', async () => {
    process.env.KUBEBUILDER_ASSETS = join(scratch, 'missing');
    await expect(startControlPlane()).rejects.toThrow(`KUBEBUILDER_ASSETS=${join(scratch, 'missing')} is not a directory`);
  });

  it('refuses an API server port that is already taken', async () => {
    const taken = await listen();
    try {
      const port = (taken.address() as { port: number }).port;
      await expect(startControlPlane({ apiServerPort: port })).rejects.toThrow(
        `API server port 127.0.0.1:${port} is already in use`,
      );
    } finally {
      taken.close();
    }
  });

  it('reports a binary that exits during start with the end of its log', async () => {
    const failure = startControlPlane({ extraArgs: { kubeApiServer: ['--no-such-flag'] } });
    await expect(failure).rejects.toThrow(/kube-apiserver exited \(exit code 1\)/);
    await expect(failure).rejects.toThrow(/last lines of kube-apiserver's log[\s\S]*unknown flag: --no-such-flag/);
  });

  it('gives up when the start exceeds its timeout', async () => {
    const failure = startControlPlane({ startTimeoutMs: 1000 });
    await expect(failure).rejects.toThrow(/was not ready in time: timed out waiting for/);
    await expect(failure).rejects.toThrow(/last lines of (etcd|kube-apiserver)'s log/);
  });
});

function listen(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
