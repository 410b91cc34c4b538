import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineKind } from '../../src/api/kind.js';
import { createClient, kinds } from '../../src/client/index.js';
import { createManager } from '../../src/manager/index.js';
import { createMetrics } from '../../src/metrics/index.js';
import { migrateStorageVersions, migrateStorageVersionsWhenLeading, progressAnnotation } from '../../src/storageversion/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';

// Storage-version migration on the real control plane: objects created while v1 is the
// storage version, v2 made the storage version, then migrated; etcd read directly (its v3
// JSON gateway) shows what each object is stored as. A migrator killed halfway (SIGKILL of a
// real process) and run again completes with nothing lost.

const REGISTER = fileURLToPath(new URL('../fixtures/ts-register.mjs', import.meta.url));
const MIGRATOR = fileURLToPath(new URL('../fixtures/storage-migrator.ts', import.meta.url));
const crdName = 'things.migrate.example.com';
const ThingV1 = defineKind<Thing>({ group: 'migrate.example.com', version: 'v1', kind: 'Thing', plural: 'things', namespaced: true });
interface Thing {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; generation?: number };
  spec?: { size?: number; label?: string };
}
const namespaces = ['alpha', 'beta'];
const perNamespace = 60;

let cp: ControlPlane;
beforeAll(async () => {
  cp = await startControlPlane();
}, 120_000);
afterAll(async () => {
  await cp?.stop();
});

function crd(storage: 'v1' | 'v2'): object {
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, label: { type: 'string' } } } } } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName },
    spec: {
      group: 'migrate.example.com',
      names: { kind: 'Thing', listKind: 'ThingList', plural: 'things', singular: 'thing' },
      scope: 'Namespaced',
      versions: ['v1', 'v2'].map((name) => ({ name, served: true, storage: name === storage, schema })),
    },
  };
}

/** What etcd holds for every Thing: key → the apiVersion it is stored as, and its spec. */
async function stored(): Promise<Map<string, { apiVersion: string; spec: unknown }>> {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const prefix = '/registry/migrate.example.com/things/';
  // range_end = the prefix with its last byte incremented: every key under the prefix.
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const response = await fetch(`${cp.etcdUrl}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(prefix), range_end: b64(end) }) });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { kvs?: { key: string; value: string }[] };
  return new Map(
    (body.kvs ?? []).map((kv) => {
      const object = JSON.parse(Buffer.from(kv.value, 'base64').toString('utf8')) as { apiVersion: string; spec: unknown };
      return [Buffer.from(kv.key, 'base64').toString('utf8'), { apiVersion: object.apiVersion, spec: object.spec }];
    }),
  );
}

async function readCrd(): Promise<{ metadata: { annotations?: Record<string, string> }; status: { storedVersions: string[] } }> {
  const response = await cp.kubeConfig.makeApiClient((await import('@kubernetes/client-node')).ApiextensionsV1Api).readCustomResourceDefinition({ name: crdName });
  return response as unknown as { metadata: { annotations?: Record<string, string> }; status: { storedVersions: string[] } };
}

function countByVersion(objects: Map<string, { apiVersion: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { apiVersion } of objects.values()) counts[apiVersion] = (counts[apiVersion] ?? 0) + 1;
  return counts;
}

function runMigrator(qps: number, pageSize: number): { exited: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>; kill(): void } {
  const child = spawn(process.execPath, ['--import', REGISTER, MIGRATOR, String(qps), String(pageSize)], { env: { ...process.env, KUBECONFIG: cp.kubeconfigPath }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { exited, kill: () => child.kill('SIGKILL') };
}

describe('migrateStorageVersions on a real API server', () => {
  it('rewrites every object into the storage version, trims storedVersions, and resumes after a SIGKILL', async () => {
    const client = createClient(cp.kubeConfig, { fieldManager: 'test' });
    const crds = kinds.CustomResourceDefinition;
    await client.apply(crds, crd('v1') as never);
    for (const ns of namespaces) await client.apply(kinds.Namespace, { metadata: { name: ns } });
    await eventually('the v1 Things are served', async () => (await client.list(ThingV1, {}).catch(() => undefined)) !== undefined);
    for (const ns of namespaces) {
      await Promise.all(Array.from({ length: perNamespace }, (_, i) => client.create(ThingV1, { metadata: { name: `thing-${i}`, namespace: ns }, spec: { size: i, label: `${ns}-${i}` } })));
    }
    const before = await stored();
    expect(countByVersion(before)).toEqual({ 'migrate.example.com/v1': namespaces.length * perNamespace });

    // v2 becomes the storage version: objects stay stored as v1 until rewritten.
    await client.apply(crds, crd('v2') as never);
    await eventually('storedVersions holds v1 and v2', async () => (await readCrd()).status.storedVersions.length === 2);
    expect((await readCrd()).status.storedVersions.sort()).toEqual(['v1', 'v2']);
    expect(countByVersion(await stored())).toEqual({ 'migrate.example.com/v1': namespaces.length * perNamespace });

    // A migrator at 15 requests per second, 10 objects a page, killed once it has saved progress.
    const first = runMigrator(15, 10);
    await eventually('the migrator has saved its progress', async () => (await readCrd()).metadata.annotations?.[progressAnnotation] !== undefined, 30_000);
    first.kill();
    const killed = await first.exited;
    expect(killed.signal).toBe('SIGKILL');
    const halfway = countByVersion(await stored());
    expect(halfway['migrate.example.com/v2']).toBeGreaterThan(0);
    expect(halfway['migrate.example.com/v1']).toBeGreaterThan(0);
    expect((await readCrd()).status.storedVersions.sort()).toEqual(['v1', 'v2']);

    const second = runMigrator(200, 10);
    const done = await second.exited;
    expect(done.code, done.stderr).toBe(0);
    const [result] = JSON.parse(done.stdout) as [{ crd: string; storageVersion: string; storedVersions: string[]; rewritten: number; resumed: boolean }];
    expect(result).toMatchObject({ crd: crdName, storageVersion: 'v2', resumed: true });
    // Resumed: the rerun did not rewrite everything again.
    expect(result.rewritten).toBeLessThan(namespaces.length * perNamespace);
    expect(done.stderr).toContain(`storage migration: ${crdName} stored as v2 only`);

    const after = await stored();
    expect(countByVersion(after)).toEqual({ 'migrate.example.com/v2': namespaces.length * perNamespace });
    for (const [key, { spec }] of before) expect(after.get(key)?.spec, key).toEqual(spec);
    const final = await readCrd();
    expect(final.status.storedVersions).toEqual(['v2']);
    expect(final.metadata.annotations?.[progressAnnotation]).toBeUndefined();
    // Rewriting changed no spec: generation stays 1.
    const things = await client.list(ThingV1, {});
    expect(things).toHaveLength(namespaces.length * perNamespace);
    expect(new Set(things.map((t) => t.metadata?.generation))).toEqual(new Set([1]));

    // Nothing left to migrate: a further run rewrites nothing; metrics count what it did.
    const metrics = createMetrics({ processMetrics: false });
    expect(await migrateStorageVersions([ThingV1], { kubeConfig: cp.kubeConfig, registry: metrics.registry })).toEqual([
      { crd: crdName, storageVersion: 'v2', storedVersions: ['v2'], rewritten: 0, resumed: false },
    ]);

    // Back to v1 as the storage version, migrated this time by a manager once it leads.
    await client.apply(crds, crd('v1') as never);
    await eventually('storedVersions holds v2 and v1', async () => (await readCrd()).status.storedVersions.length === 2);
    const mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent', leaderElection: true, leaderElectionId: 'storage-migration-test', leaderElectionNamespace: 'default' });
    migrateStorageVersionsWhenLeading(mgr, [ThingV1]);
    const running = mgr.start();
    try {
      await eventually('the manager migrated every Thing back to v1', async () => (await readCrd()).status.storedVersions.join() === 'v1', 60_000);
      expect(countByVersion(await stored())).toEqual({ 'migrate.example.com/v1': namespaces.length * perNamespace });
      expect(await mgr.metrics.registry.getSingleMetricAsString('opgen_storage_migration_objects_total')).toContain(`opgen_storage_migration_objects_total{crd="${crdName}"} ${namespaces.length * perNamespace}`);
    } finally {
      mgr.stop();
      await running;
    }
  }, 240_000);
});
