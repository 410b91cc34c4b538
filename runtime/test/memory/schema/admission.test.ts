/**
 * CRD admission against the answers recorded from kube-apiserver 1.36.3
 * (hack/memory-schema/record.mjs): the same refusals, field paths and messages.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { admitCrd, errorBody, invalidMessage, type CrdLike, type FieldError } from '../../../src/internal/semantics/index.js';

const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8'));
const cases = read('crd-cases.json') as Array<{ label: string; crd: CrdLike & { metadata: { name: string } } }>;
const { admission } = read('recorded.json') as { admission: Array<{ label: string; status: number; message?: string; causes?: Array<{ reason: string; message: string; field: string }> }> };

/**
 * Refusals the memory cluster does not reproduce exactly, each with what it does instead.
 * cel-go's parser and type checker messages are not reimplemented: a rule
 * that does not parse or type-check is refused with cel-js' words.
 */
const NOT_COVERED: Record<string, { reason: string; detailStartsWith: string }> = {
  'cel-nokey': { reason: "refused, but with cel-js' type error, not cel-go's", detailStartsWith: 'compilation failed: ' },
  'cel-type': { reason: "refused, but with cel-js' type error, not cel-go's", detailStartsWith: 'compilation failed: ' },
  'cel-syntax': { reason: "refused, but with cel-js' parse error, not cel-go's", detailStartsWith: 'compilation failed: ' },
};

const causeOf = (e: FieldError) => ({ reason: e.type, message: errorBody(e), field: e.field });

describe('CRD admission as kube-apiserver 1.36.3 answers it', () => {
  for (const c of cases) {
    const answer = admission.find((a) => a.label === c.label)!;
    const gap = NOT_COVERED[c.label];
    it(`${c.label}: ${answer.status}${gap ? ` (not covered: ${gap.reason})` : ''}`, () => {
      const errors = admitCrd(c.crd);
      if (gap) {
        expect(answer.status).toBe(422);
        expect(errors.map((e) => e.detail?.slice(0, gap.detailStartsWith.length))).toEqual([gap.detailStartsWith]);
        return;
      }
      if (answer.status === 201) {
        expect(errors).toEqual([]);
        return;
      }
      expect(errors.map(causeOf)).toEqual(answer.causes);
      expect(invalidMessage('CustomResourceDefinition.apiextensions.k8s.io', c.crd.metadata.name, errors)).toBe(answer.message);
    });
  }
});

describe('selectable fields', () => {
  it('must name a field the schema declares: preserving unknown fields is not enough (kube-apiserver 1.36.3)', () => {
    const crd = structuredClone(cases[0]!.crd);
    crd.metadata.name = `${crd.spec.names.plural}.${crd.spec.group}`;
    const version = crd.spec.versions[0]! as (typeof crd.spec.versions)[number] & { selectableFields?: Array<{ jsonPath: string }> };
    version.schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
    version.selectableFields = [{ jsonPath: '.spec.color' }];
    expect(invalidMessage('CustomResourceDefinition.apiextensions.k8s.io', crd.metadata.name, admitCrd(crd))).toBe(
      `CustomResourceDefinition.apiextensions.k8s.io "${crd.metadata.name}" is invalid: spec.selectableFields[0].jsonPath: Invalid value: ".spec.color": is an invalid path: does not refer to a valid field`,
    );
  });
});
