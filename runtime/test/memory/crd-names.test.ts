import { afterEach, expect, test } from 'vitest';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { ApiError } from '../../src/rest/errors.js';
import { api, widgetCRD } from './support.js';

/**
 * The naming controller of the memory cluster: a CRD whose names another CRD of its group
 * holds is stored but never established or served, as kube-apiserver does (the differential
 * suite's CRD admission area compares it with the real one).
 */

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

let memory: MemoryCluster;
afterEach(() => memory?.close());

/** A CRD of kind `WidgetList` in Widget's group: its kind is Widget's list kind. */
function widgetListCRD() {
  const crd = widgetCRD();
  return { ...crd, metadata: { name: 'widgetlists.example.com' }, spec: { ...crd.spec, names: { kind: 'WidgetList', plural: 'widgetlists' } } };
}

const condition = (crd: { status?: { conditions?: { type: string }[] } }, type: string) => crd.status?.conditions?.find((c) => c.type === type);

test('a kind that is another kind’s list kind is not accepted, established or served', async () => {
  memory = await createMemoryCluster({ crds: [widgetCRD()] as never });
  const a = api(memory.transport);
  await a.post(CRDS, widgetListCRD());
  await memory.server.idle();
  const stored = await a.get(`${CRDS}/widgetlists.example.com`);
  expect(condition(stored, 'NamesAccepted')).toMatchObject({ status: 'False', reason: 'KindConflict', message: '"WidgetList" is already in use' });
  expect(condition(stored, 'Established')).toMatchObject({ status: 'False', reason: 'NotAccepted' });
  expect(stored.status.acceptedNames).toMatchObject({ kind: '', plural: 'widgetlists' });
  const served = await a.get('/apis/example.com/v1/widgetlists').catch((error: unknown) => error);
  expect(served).toBeInstanceOf(ApiError);
  expect((served as ApiError).code).toBe(404);
  // Widget, which held the name first, is served as before.
  expect((await a.get('/apis/example.com/v1/widgets')).items).toEqual([]);
});

test('once the CRD holding the name is deleted, the refused one is accepted and served', async () => {
  memory = await createMemoryCluster({ crds: [widgetCRD()] as never });
  const a = api(memory.transport);
  await a.post(CRDS, widgetListCRD());
  await a.delete(`${CRDS}/widgets.example.com`);
  await memory.server.idle();
  const stored = await a.get(`${CRDS}/widgetlists.example.com`);
  expect(condition(stored, 'NamesAccepted')).toMatchObject({ status: 'True', reason: 'NoConflicts' });
  expect(condition(stored, 'Established')).toMatchObject({ status: 'True' });
  expect((await a.get('/apis/example.com/v1/widgetlists')).items).toEqual([]);
});
