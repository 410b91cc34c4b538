/**
 * The real-world corpus (test/fixtures/corpus: CRDs of widely used projects at pinned
 * versions, and Gateway API's published examples) created on the real kube-apiserver 1.36.3
 * and on the memory cluster: each CRD with the same outcome and Established on both, each
 * example object with the same code, reason and causes. Beside them, the CEL and schema
 * semantics those CRDs lean on (fidelity.ts): object equality, RE2, code-point strings, typed
 * formats, each decided by the real API server too.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/rest/errors.js';
import { createTransport, type Transport } from '../../../src/rest/transport.js';
import { createMemoryCluster, startControlPlane, type ControlPlane, type MemoryCluster } from '../../../src/testing/index.js';
import { corpusCrds, corpusExamples, type CorpusFile } from '../../../../test/corpus/corpus.js';
import { COMPILER_MASK, COMPILER_TEXT } from '../differential/differences.js';
import { FIDELITY_CRD, fidelityCases } from './fidelity.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const crds = corpusCrds();
const examples = corpusExamples();

/** What a write answered: success, or the error's code, reason, message and causes (as a set). */
interface Answer {
  code: number | '2xx';
  reason?: string;
  message?: string;
  causes?: string[];
}

async function write(transport: Transport, method: 'POST' | 'PATCH', path: string, body: unknown): Promise<Answer> {
  try {
    await transport.request({ method, path, body, contentType: method === 'PATCH' ? 'application/merge-patch+json' : undefined, timeoutMs: 30_000 });
    return { code: '2xx' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const details = (error.status as { details?: { causes?: Array<{ reason?: string; message?: string; field?: string }> } } | undefined)?.details;
    // The compiler's own words are the one difference allowed (docs/memory-cluster-differences.md, cel-compile-error-text).
    const causes = (details?.causes ?? []).map((c) => `${c.reason} ${c.field}: ${c.message?.replace(COMPILER_TEXT, COMPILER_MASK)}`).sort();
    return { code: error.code, reason: error.reason, message: causes.length === 1 ? error.status?.message?.replace(COMPILER_TEXT, COMPILER_MASK) : error.status?.message, causes };
  }
}

async function established(transport: Transport, name: string): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const live = await transport.request<{ status?: { conditions?: Array<{ type: string; status: string }> } }>({ method: 'GET', path: `${CRDS}/${name}` });
    if (live.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

/** Where an example object is created: its kind's plural from the corpus' CRDs, in a namespace of its file. */
function target(example: CorpusFile, index: number): { path: string; body: Record<string, unknown> } {
  const body = structuredClone(example.doc) as { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };
  const prefix = `ex${index}`;
  if (body.kind === 'Namespace') {
    body.metadata.name = `${prefix}-${body.metadata.name}`;
    return { path: '/api/v1/namespaces', body };
  }
  const [group] = body.apiVersion.split('/');
  const crd = crds.find(({ doc }) => {
    const spec = doc.spec as { group: string; names: { kind: string } };
    return spec.group === group && spec.names.kind === body.kind;
  });
  if (!crd) throw new Error(`${example.file}: no CRD in the corpus for ${body.kind}`);
  const spec = crd.doc.spec as { scope: string; names: { plural: string } };
  if (spec.scope === 'Cluster') {
    body.metadata.name = `${prefix}-${body.metadata.name}`;
    return { path: `/apis/${body.apiVersion}/${spec.names.plural}`, body };
  }
  body.metadata.namespace = `corpus-${prefix}`;
  return { path: `/apis/${body.apiVersion}/namespaces/corpus-${prefix}/${spec.names.plural}`, body };
}

/** The example files, numbered: every file's objects share a namespace of their own. */
const files = [...new Set(examples.map((e) => e.file))];

describe('the real-world corpus on kube-apiserver 1.36.3 and on the memory cluster', () => {
  let controlPlane: ControlPlane | undefined;
  let real: Transport;
  let memory: MemoryCluster;

  beforeAll(async () => {
    controlPlane = await startControlPlane();
    real = createTransport(controlPlane.kubeConfig);
    memory = await createMemoryCluster();
  }, 900_000);

  afterAll(async () => {
    memory?.close();
    await controlPlane?.stop();
  });

  it.each(crds.map((c) => [`${c.project}/${c.file}`, c] as const))('creates %s alike, Established on both', async (_, { doc }) => {
    const name = (doc.metadata as { name: string }).name;
    const [onReal, onMemory] = [await write(real, 'POST', CRDS, doc), await write(memory.transport, 'POST', CRDS, doc)];
    expect(onMemory).toEqual(onReal);
    expect(onReal.code).toBe('2xx');
    expect([await established(real, name), await established(memory.transport, name)]).toEqual([true, true]);
  });

  it('creates the CRD of the CEL and schema cases alike', async () => {
    const [onReal, onMemory] = [await write(real, 'POST', CRDS, FIDELITY_CRD), await write(memory.transport, 'POST', CRDS, FIDELITY_CRD)];
    expect(onMemory).toEqual(onReal);
    expect([await established(real, FIDELITY_CRD.metadata.name), await established(memory.transport, FIDELITY_CRD.metadata.name)]).toEqual([true, true]);
    // A new resource is served a moment after Established on the real API server.
    await sleep(2_000);
  });

  it.each(fidelityCases.map((c) => [c.name, c] as const))('CEL and schema: %s', async (_, { steps, expected }) => {
    const answers: Answer[][] = [];
    for (const transport of [real, memory.transport]) {
      const side: Answer[] = [];
      for (const step of steps) side.push(await write(transport, step.method, step.path, step.body));
      answers.push(side);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]!.map((a) => a.code)).toEqual(expected);
  });

  it.each(files.map((file, i) => [file, i] as const))('creates the objects of example %s alike', async (file, index) => {
    for (const transport of [real, memory.transport]) await write(transport, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `corpus-ex${index}` } });
    const objects = examples.filter((e) => e.file === file);
    const recorded: Array<{ real: Answer; memory: Answer }> = [];
    for (const example of objects) {
      const { path, body } = target(example, index);
      recorded.push({ real: await write(real, 'POST', path, body), memory: await write(memory.transport, 'POST', path, body) });
    }
    expect(recorded.map((r) => r.memory)).toEqual(recorded.map((r) => r.real));
  });
});
