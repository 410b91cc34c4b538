/**
 * One semantics core: `opgen manifests` (checkStructural, checkDefaults) and the memory
 * cluster's CRD create refuse the same schemas for the same reason, and accept the same ones
 * (the API server's verdicts on these cases are apiserver.integration.test.ts', and the
 * differential suite's for fieldPaths).
 */
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { createMemoryCluster, type MemoryCluster } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDefaults, checkStructural } from '../../src/validation/structural.js';
import { checkCelTypes } from '@opgen/runtime/internal/cel';
import { acceptedSchemas, crdOf, defaultRejections, fieldPathCases, fieldPathSpec, root, structuralRejections } from './cases.js';

let cluster: MemoryCluster;

beforeAll(async () => {
  cluster = await createMemoryCluster();
});

afterAll(() => cluster?.close());

/** The memory cluster's answer to creating a CRD with `schema` (dry run): its refusal, or undefined. */
async function memoryRefusal(schema: JSONSchemaProps): Promise<string | undefined> {
  const body = crdOf('Thing', 'same.opgen.dev', schema);
  const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  return cluster.transport.request({ method: 'POST', path, query: { dryRun: 'All' }, body }).then(
    () => undefined,
    (error: Error) => error.message,
  );
}

describe('opgen manifests and the memory cluster', () => {
  it.each(structuralRejections)('refuse %s for the same reason', async (_, spec, path, message) => {
    expect(checkStructural(root(spec))).toContainEqual({ path, message });
    // The CLI's message is the field error after the node's data path; the server's, after the API server's field path.
    expect(await memoryRefusal(root(spec))).toContain(`.${message}`);
  });

  it.each(defaultRejections)('refuse a default %s, at the same default', async (_, x, path) => {
    const schema = root({ type: 'object', properties: { x } });
    expect(checkDefaults(schema).map((problem) => problem.path)).toContain(path);
    expect(await memoryRefusal(schema)).toContain('spec.validation.openAPIV3Schema.properties[spec].properties[x].default');
  });

  it.each(acceptedSchemas)('accept %s', async (_, spec) => {
    expect([...checkStructural(root(spec)), ...checkDefaults(root(spec))]).toEqual([]);
    expect(await memoryRefusal(root(spec))).toBeUndefined();
  });

  it.each(fieldPathCases)('check the fieldPath %j of a CEL rule alike', async (fieldPath, detail) => {
    const schema = root(fieldPathSpec(fieldPath));
    const cli = checkCelTypes(schema).filter((problem) => problem.field === 'fieldPath').map((problem) => problem.message);
    const memory = await memoryRefusal(schema);
    if (detail === undefined) {
      expect(cli).toEqual([]);
      expect(memory).toBeUndefined();
    } else {
      expect(cli).toContain(detail);
      expect(memory).toContain(`x-kubernetes-validations[0].fieldPath: Invalid value: ${JSON.stringify(fieldPath)}: ${detail}`);
    }
  });
});
