import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { createClient, kinds } from '../../src/client/index.js';
import { Lease } from '../../src/client/kinds.js';
import type { Cluster } from '../../src/rest/cluster.js';
import { setControllerReference } from '../../src/helpers/index.js';
import { createLogger } from '../../src/log/index.js';
import { RING_LABEL, shardLabel, shardLeaseName } from '../../src/sharding/labels.js';
import { registerShardMetrics } from '../../src/sharding/metrics.js';
import { runSharder } from '../../src/sharding/sharder.js';
import { readCRDs } from '../../src/testing/crds.js';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

let memory: MemoryCluster | undefined;
afterEach(() => memory?.close());

/**
 * The memory cluster's API, with every change to a Widget reaching watchers `delayMs` late
 * (an API server's watch may lag its writes' answers).
 */
function laggingWidgetChanges(cluster: Cluster, delayMs: number): Cluster {
  const { transport } = cluster;
  return {
    ...cluster,
    transport: {
      ...transport,
      async stream(request) {
        const stream = await transport.stream(request);
        if (!request.path.includes('/widgets')) return stream;
        return Readable.from(
          (async function* () {
            let rest = '';
            for await (const chunk of stream) {
              const lines = (rest + String(chunk)).split('\n');
              rest = lines.pop() ?? '';
              for (const line of lines) {
                if (line.includes('"type":"MODIFIED"')) await sleep(delayMs);
                yield `${line}\n`;
              }
            }
          })(),
        );
      },
    },
  };
}

// A child created while its owner's label patch is on its way to the sharder's cache: the
// owner is there, still unlabelled, so the child has nowhere to go yet. When the owner's
// labelled version arrives the child must follow it; a child left unlabelled is invisible
// to its shard's filtered cache, and never reconciled.
it('labels a child that arrived before its owner was seen labelled, once the owner is', async () => {
  memory = await createMemoryCluster({ crds: readCRDs([WIDGET_CRD]) });
  const client = createClient(memory.cluster);
  const ring = 'kids';
  const S = shardLabel(ring);
  const renewTime = new Date().toISOString().replace('Z', '000Z');
  await client.create(Lease, {
    metadata: { name: shardLeaseName(ring, 'r1'), namespace: 'default', labels: { [RING_LABEL]: ring } },
    spec: { holderIdentity: 'r1', leaseDurationSeconds: 600, renewTime },
  });
  const stop = new AbortController();
  const running = runSharder(
    {
      ring,
      shard: 'r1',
      kinds: [Widget, kinds.ConfigMap],
      cluster: laggingWidgetChanges(memory.cluster, 300),
      client,
      namespace: 'default',
      timing: { leaseDurationMs: 60_000, renewDeadlineMs: 40_000, retryPeriodMs: 1_000 },
      log: createLogger({ level: 'silent' }),
      metrics: registerShardMetrics(new Registry(), ring, 'r1', () => 0),
      mode: () => 'labels',
    },
    stop.signal,
  );
  await eventually('the sharder holding its Lease', async () => (await client.get(Lease, `${ring}-sharder`, 'default'))?.spec?.holderIdentity);

  const names = ['w0', 'w1', 'w2'];
  for (const name of names) {
    const widget = await client.create(Widget, { metadata: { name, namespace: 'default' }, spec: { size: 1 } });
    // Labelled on the server; its sharder sees that 300 ms later, after the child's creation.
    await eventually(`${name} labelled`, async () => (await client.get(Widget, name, 'default'))?.metadata.labels?.[S]);
    await client.create(kinds.ConfigMap, setControllerReference(widget, Widget, { metadata: { name: `${name}-child`, namespace: 'default' }, data: { a: 'b' } }));
  }
  const unlabelled = async () => {
    const children = await client.list(kinds.ConfigMap, { namespace: 'default' });
    return children.filter((c) => c.metadata.name.endsWith('-child') && c.metadata.labels?.[S] !== 'r1').map((c) => c.metadata.name);
  };
  await eventually('every child labelled for its owner\'s shard', async () => (await unlabelled()).length === 0, 10_000).catch(async (error: Error) => {
    throw new Error(`${error.message}: still unlabelled ${(await unlabelled()).join(', ')}`);
  });
  expect((await client.list(Widget, { namespace: 'default' })).every((w) => w.metadata.labels?.[S] === 'r1')).toBe(true);
  stop.abort();
  await running;
});
