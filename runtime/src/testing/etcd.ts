import { join } from 'node:path';
import { httpCall } from './http.js';
import { LOOPBACK } from './ports.js';
import { startProcess, type ManagedProcess, type Supervise } from './process.js';
import { waitUntilReady } from './wait.js';

/** Where etcd lives inside a control plane's temp dir, and on which ports. */
export interface EtcdConfig {
  binary: string;
  dir: string;
  clientPort: number;
  peerPort: number;
  extraArgs: string[];
}

/** The URL the API server and the fault drills talk to. */
export function etcdUrl(config: Pick<EtcdConfig, 'clientPort'>): string {
  return `http://${LOOPBACK}:${config.clientPort}`;
}

/** Starts a single-member etcd and waits until it reports healthy. */
export async function startEtcd(config: EtcdConfig, deadline: number, supervise: Supervise): Promise<ManagedProcess> {
  const client = etcdUrl(config);
  const peer = `http://${LOOPBACK}:${config.peerPort}`;
  const args = [
    `--data-dir=${join(config.dir, 'etcd')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    // Test data is thrown away: durability only costs time.
    '--unsafe-no-fsync',
    ...config.extraArgs,
  ];
  const etcd = supervise(await startProcess('etcd', config.binary, args, join(config.dir, 'etcd.log')));
  await waitUntilReady(etcd, `${client}/health`, deadline, async () => {
    const response = await httpCall(`${client}/health`);
    if (response.status !== 200 || !response.body.includes('"health":"true"')) {
      throw new Error(`GET /health: ${response.status} ${response.body.trim()}`);
    }
  });
  return etcd;
}

/**
 * Compacts etcd's history so that every resourceVersion seen before the call is too old:
 * a watch resuming from one, or a read at one, then fails with 410 Gone when it reaches
 * etcd. Returns the revision compacted to.
 */
export async function compactEtcd(url: string): Promise<number> {
  // A watch from resourceVersion X replays from X + 1, so compacting at the current
  // revision would spare the latest one. Writing and deleting a key outside the API
  // server's /registry prefix moves two revisions past it and leaves nothing behind.
  const key = Buffer.from('/opgen-testing/compaction').toString('base64');
  await etcdCall(url, '/v3/kv/put', { key, value: Buffer.from('-').toString('base64') });
  const deleted = await etcdCall(url, '/v3/kv/deleterange', { key });
  const revision = Number((deleted as { header?: { revision?: string } }).header?.revision);
  if (!Number.isSafeInteger(revision)) throw new Error(`etcd gave no revision: ${JSON.stringify(deleted)}`);
  await etcdCall(url, '/v3/kv/compaction', { revision: String(revision), physical: true });
  return revision;
}

/** One call to etcd's v3 JSON gateway. */
async function etcdCall(url: string, path: string, body: object): Promise<unknown> {
  const response = await httpCall(`${url}${path}`, { method: 'POST', body: JSON.stringify(body), timeoutMs: 10_000 });
  if (response.status !== 200) {
    throw new Error(`etcd ${path}: ${response.status} ${response.body.trim()}`);
  }
  return JSON.parse(response.body) as unknown;
}
