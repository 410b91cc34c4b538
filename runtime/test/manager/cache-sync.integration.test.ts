import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kind } from '../../src/api/kind.js';
import type { KubeObject } from '../../src/object.js';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createManager } from '../../src/manager/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { createNamespace } from '../client/support.js';

// A large operator's caches take longer to sync than any fixed timeout suits. The sync
// timeout bounds a sync that makes no progress, not one that does: here six informers list
// through a bucket of one token every 1.5 s, so the sync takes about 7.5 s, well past its
// 3 s timeout, and keeps making progress all along.

const WATCHED: Kind<KubeObject>[] = [kinds.ConfigMap, kinds.Secret, kinds.ServiceAccount, kinds.Service, kinds.Pod, kinds.PersistentVolumeClaim];

interface Line {
  msg: string;
  level: number;
  waiting?: Array<{ kind: string }>;
}

describe('cache sync of a slow but progressing cache', () => {
  let cp: ControlPlane;
  let client: Client;

  beforeAll(async () => {
    cp = await startControlPlane();
    client = createClient(cp.kubeConfig);
  });
  afterAll(async () => cp?.stop());

  it('waits past cacheSyncTimeoutMs while informers keep syncing, logs the progress, and is not ready meanwhile', async () => {
    const ns = await createNamespace(client, 'slowsync');
    const lines: Line[] = [];
    const mgr = createManager({
      kubeConfig: cp.kubeConfig,
      namespace: ns,
      qps: 1 / 1.5,
      burst: 1,
      cacheSyncTimeoutMs: 3_000,
      healthProbeBindAddress: '127.0.0.1:0',
      handleSignals: false,
      logDestination: { write: (l: string) => void lines.push(JSON.parse(l) as Line) },
    });
    for (const kind of WATCHED) mgr.cache.informerFor(kind);
    const startedAt = performance.now();
    const running = mgr.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      // Honest meanwhile: not ready (the caches are not synced), but alive (no restart).
      const readyz = await fetch(`http://${mgr.healthProbeAddress}/readyz`);
      expect(readyz.status).toBe(500);
      expect(await readyz.text()).toContain('[-]cache-sync failed');
      expect((await fetch(`http://${mgr.healthProbeAddress}/healthz`)).status).toBe(200);

      await mgr.elected();
      const syncMs = performance.now() - startedAt;
      expect(syncMs).toBeGreaterThan(3_000);
      expect((await fetch(`http://${mgr.healthProbeAddress}/readyz`)).status).toBe(200);
      const progress = lines.filter((l) => l.msg === 'Waiting for caches to sync');
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress[0]!.waiting!.length).toBeGreaterThan(0);
      expect(lines.some((l) => l.msg === 'Caches synced')).toBe(true);
      console.log(`slow cache sync: ${WATCHED.length} informers synced in ${Math.round(syncMs)} ms with a 3000 ms sync timeout; ${progress.length} progress lines`);
    } finally {
      mgr.stop();
      await running;
    }
  });
});
