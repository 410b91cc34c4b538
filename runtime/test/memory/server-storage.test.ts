import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { unifiedDiff } from '../../src/testing/memory/server/unified-diff.js';
import { api, statusOf } from './support.js';

let memory: MemoryCluster;
afterEach(() => memory?.close());

const PVS = '/api/v1/persistentvolumes';
const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';
const MERGE = 'application/merge-patch+json';

async function start() {
  memory = await createMemoryCluster({ crds: [] });
  return api(memory.transport);
}

const volume = (name: string) => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/tmp/${name}` } } });
const claim = (name: string) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });

describe('PersistentVolume protection', () => {
  test('a volume gets the pv-protection finalizer; deleting it waits while it is Bound and completes once it is not', async () => {
    const a = await start();
    const made = await a.post(PVS, volume('pv'));
    expect(made.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    await a.patch(`${PVS}/pv/status`, { status: { phase: 'Bound' } }, MERGE);
    await a.delete(`${PVS}/pv`);
    await memory.server.idle();
    expect((await a.get(`${PVS}/pv`)).metadata.deletionTimestamp).toBeDefined();
    await a.patch(`${PVS}/pv/status`, { status: { phase: 'Released' } }, MERGE);
    await memory.server.idle();
    expect((await statusOf(a.get(`${PVS}/pv`))).code).toBe(404);
  });

  test('a phase change is timed unless the writer timed it, as the PersistentVolume status strategy does', async () => {
    const a = await start();
    const made = await a.post(PVS, volume('timed'));
    expect(made.status).toEqual({ phase: 'Pending', lastPhaseTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    const set = await a.patch(`${PVS}/timed/status`, { status: { phase: 'Available', lastPhaseTransitionTime: '2020-01-01T00:00:00Z' } }, MERGE);
    expect(set.status.lastPhaseTransitionTime).toBe('2020-01-01T00:00:00Z');
    const bound = await a.patch(`${PVS}/timed/status`, { status: { phase: 'Bound' } }, MERGE);
    expect(bound.status.lastPhaseTransitionTime).not.toBe('2020-01-01T00:00:00Z');
  });

  test('an unbound volume is deleted at once', async () => {
    const a = await start();
    await a.post(PVS, volume('free'));
    await a.delete(`${PVS}/free`);
    await memory.server.idle();
    expect((await statusOf(a.get(`${PVS}/free`))).code).toBe(404);
  });
});

describe('PersistentVolumeClaim updates', () => {
  test('a bound claim may grow, but its access modes stay as created, with the spec diff in the message', async () => {
    const a = await start();
    await a.post(PVCS, claim('data'));
    await a.patch(`${PVCS}/data/status`, { status: { phase: 'Bound' } }, MERGE);
    const grown = await a.patch(`${PVCS}/data`, { spec: { resources: { requests: { storage: '2Gi' } } } }, MERGE);
    expect(grown.spec.resources.requests.storage).toBe('2Gi');
    const refused = await statusOf(a.patch(`${PVCS}/data`, { spec: { accessModes: ['ReadWriteMany'] } }, MERGE));
    expect(refused.code).toBe(422);
    expect(refused.details?.causes?.[0]?.message).toBe(
      'Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n' +
        '@@ -1,6 +1,6 @@\n {\n  "AccessModes": [\n-  "ReadWriteOnce"\n+  "ReadWriteMany"\n  ],\n  "Selector": null,\n  "Resources": {\n',
    );
  });

  test('an unbound claim may get its volume name and a storage class once', async () => {
    const a = await start();
    await a.post(PVCS, claim('late'));
    const named = await a.patch(`${PVCS}/late`, { spec: { volumeName: 'pv-1', storageClassName: 'standard' } }, MERGE);
    expect(named.spec).toMatchObject({ volumeName: 'pv-1', storageClassName: 'standard' });
    expect((await statusOf(a.patch(`${PVCS}/late`, { spec: { storageClassName: 'fast' } }, MERGE))).code).toBe(422);
  });
});

describe('unifiedDiff', () => {
  test('changes far apart are separate hunks with three lines of context; equal texts give nothing', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i}`);
    const changed = lines.map((line, i) => (i === 1 || i === 10 ? `${line}!` : line));
    expect(unifiedDiff(lines.join('\n'), changed.join('\n'))).toBe(
      '@@ -1,5 +1,5 @@\n line 0\n-line 1\n+line 1!\n line 2\n line 3\n line 4\n' + '@@ -8,5 +8,5 @@\n line 7\n line 8\n line 9\n-line 10\n+line 10!\n line 11\n',
    );
    expect(unifiedDiff('same', 'same')).toBe('');
  });
});
