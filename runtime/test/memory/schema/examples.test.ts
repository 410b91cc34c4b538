/**
 * The memory cluster refuses what kube-apiserver refuses for the CRDs of opgen's examples:
 * their CEL rules (regex `matches`, `self.metadata.name.size()`, `self == oldSelf`, the
 * one-of `filter` rules) and schemas, through the in-process transport, with the 422 Status
 * the client sees. The messages were checked against kube-apiserver 1.36.3.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readCRDs } from '../../../src/testing/crds.js';
import { createMemoryCluster, type MemoryCluster } from '../../../src/testing/memory/cluster.js';
import { api, statusOf } from '../support.js';

const repo = new URL('../../../../', import.meta.url).pathname;
let memory: MemoryCluster | undefined;
afterEach(() => memory?.close());

async function cluster(...paths: string[]) {
  memory = await createMemoryCluster({ crds: readCRDs(paths.map((p) => `${repo}${p}`)) });
  return api(memory.transport);
}

describe('the echo example', () => {
  const echoes = '/apis/echo.mmontes.io/v1alpha1/namespaces/default/scheduledechos';
  const scheduled = (name: string, schedule: string) => ({ apiVersion: 'echo.mmontes.io/v1alpha1', kind: 'ScheduledEcho', metadata: { name }, spec: { message: 'hi', schedule } });

  it('accepts a cron schedule and refuses anything else with the rule message', async () => {
    const client = await cluster('examples/echo/config/crd/bases');
    await client.post(echoes, scheduled('ok', '30 2 * * 1-5'));
    await client.post(echoes, scheduled('every', '@every 90s'));
    const status = await statusOf(client.post(echoes, scheduled('bad', 'now')));
    expect(status.code).toBe(422);
    expect(status.reason).toBe('Invalid');
    expect(status.message).toBe('ScheduledEcho.echo.mmontes.io "bad" is invalid: spec.schedule: Invalid value: "now": schedule must be a cron expression such as "30 2 * * 1-5", a macro such as "@hourly", or "@every <duration>"');
    expect(status.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.schedule', message: 'Invalid value: "now": schedule must be a cron expression such as "30 2 * * 1-5", a macro such as "@hourly", or "@every <duration>"' },
    ]);
  });

  it("checks the root rule on the object's name", async () => {
    const client = await cluster('examples/echo/config/crd/bases');
    const status = await statusOf(client.post(echoes, scheduled('x'.repeat(53), '@hourly')));
    expect(status.message).toBe(`ScheduledEcho.echo.mmontes.io "${'x'.repeat(53)}" is invalid: <nil>: Invalid value: a ScheduledEcho's name is its CronJob's name: at most 52 characters`);
  });

  it('keeps an Echo message immutable, as its transition rule says, and requires the spec', async () => {
    const client = await cluster('examples/echo/config/crd/bases');
    const path = '/apis/echo.mmontes.io/v1alpha1/namespaces/default/echos';
    const created = await client.post(path, { apiVersion: 'echo.mmontes.io/v1alpha1', kind: 'Echo', metadata: { name: 'e' }, spec: { message: 'a' } });
    const changed = await statusOf(client.put(`${path}/e`, { ...created, spec: { message: 'b' } }));
    expect(changed.message).toBe('Echo.echo.mmontes.io "e" is invalid: spec.message: Invalid value: "b": message is immutable: create another Echo');
    const missing = await statusOf(client.post(path, { apiVersion: 'echo.mmontes.io/v1alpha1', kind: 'Echo', metadata: { name: 'f' } }));
    expect(missing.message).toBe('Echo.echo.mmontes.io "f" is invalid: [spec: Required value, <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]');
  });
});

describe('pruning, defaulting and field validation through the server', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gizmos.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 3 } } } } } } }],
    },
  };
  const path = '/apis/example.com/v1/namespaces/default/gizmos';

  it('stores the object pruned and defaulted', async () => {
    memory = await createMemoryCluster({ crds: [crd] });
    const client = api(memory.transport);
    const created = await client.post(path, { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g' }, spec: { typo: 1 }, extra: true });
    expect(created.spec).toEqual({ size: 3 });
    expect(created.extra).toBeUndefined();
    expect((await client.get(`${path}/g`)).spec).toEqual({ size: 3 });
  });

  it('refuses unknown fields under fieldValidation=Strict', async () => {
    memory = await createMemoryCluster({ crds: [crd] });
    const status = await statusOf(api(memory.transport).post(path, { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g' }, spec: { typo: 1 } }, { fieldValidation: 'Strict' }));
    expect(status.code).toBe(400);
    expect(status.message).toBe('Gizmo in version "v1" cannot be handled as a Gizmo: strict decoding error: unknown field "spec.typo"');
  });

  it('refuses a CRD the API server refuses, with its message', async () => {
    const bad = structuredClone(crd);
    bad.metadata.name = 'other.example.com';
    await expect(createMemoryCluster({ crds: [bad] })).rejects.toThrow(
      'createMemoryCluster: CustomResourceDefinition other.example.com was refused: CustomResourceDefinition.apiextensions.k8s.io "other.example.com" is invalid: metadata.name: Invalid value: "other.example.com": must be spec.names.plural+"."+spec.group',
    );
  });
});
