/**
 * Replays the schema cases recorded from kube-apiserver 1.36.3 (hack/memory-schema/record.mjs)
 * through the memory cluster's decoding and validation: the same 422 message and causes, the
 * same stored object. The API server lists errors of sibling fields in Go map order, which
 * changes from request to request, so causes are compared in the recorded order.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCustomObject, errorBody, invalidMessage, validateCustomObject, type CrdLike, type FieldError, type JsonObject } from '../../../src/internal/semantics/index.js';

const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8'));
const crd = read('widget-crd.json') as CrdLike;
const cases = read('cases.json') as Array<{ label: string; create: JsonObject; update?: JsonObject; subresource?: 'status' }>;
const { recorded } = read('recorded.json') as { recorded: Array<{ label: string; status: number; message?: string; causes?: Cause[]; object?: { spec?: unknown; status?: unknown; top: string[] } }> };

interface Cause {
  reason: string;
  message: string;
  field: string;
}

/** A write as the memory cluster's pipeline makes it: decode, the strategy's status/spec separation, validation. */
function write(c: (typeof cases)[number]): { object: JsonObject; errors: FieldError[] } {
  const created = decodeCustomObject({ crd, version: 'v1', object: c.create }).object;
  delete created.status; // the status subresource: status is not written on create
  if (!c.update) return { object: created, errors: validateCustomObject({ crd, version: 'v1', object: created }) };
  const old = validateCustomObject({ crd, version: 'v1', object: created });
  expect(old).toEqual([]);
  const body: JsonObject = { ...structuredClone(created), ...structuredClone(c.update) };
  const updated = decodeCustomObject({ crd, version: 'v1', object: body }).object;
  if (c.subresource === 'status') updated.spec = created.spec!;
  else if (created.status === undefined) delete updated.status;
  else updated.status = created.status;
  return { object: updated, errors: validateCustomObject({ crd, version: 'v1', object: updated, oldObject: created, subresource: c.subresource ?? '' }) };
}

const causeOf = (e: FieldError): Cause => ({ reason: e.type, message: errorBody(e), field: e.field });
const key = (c: Cause) => `${c.field}|${c.reason}|${c.message}`;

describe('custom objects as kube-apiserver 1.36.3 decodes and validates them', () => {
  for (const c of cases) {
    const answer = recorded.find((r) => r.label === c.label)!;
    it(`${c.label}: ${answer.status}`, () => {
      const { object, errors } = write(c);
      if (answer.status >= 300) {
        const mine = errors.map(causeOf);
        expect(mine.map(key).sort()).toEqual(answer.causes!.map(key).sort());
        const order = answer.causes!.map(key);
        const inRecordedOrder = [...errors].sort((a, b) => order.indexOf(key(causeOf(a))) - order.indexOf(key(causeOf(b))));
        expect(invalidMessage('Widget.probe.example.com', (c.create.metadata as JsonObject).name as string, inRecordedOrder)).toBe(answer.message);
      } else {
        expect(errors).toEqual([]);
        expect(object.spec).toEqual(answer.object!.spec);
        expect(Object.keys(object).sort()).toEqual(answer.object!.top.filter((k) => k !== 'metadata' || 'metadata' in object));
        if (answer.object!.status !== undefined) expect(object.status).toEqual(answer.object!.status);
      }
    });
  }
});
