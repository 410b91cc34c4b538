/**
 * cel-go's semantics where cel-js' differ, in the memory cluster's evaluation of rules and
 * patterns: RE2 (`(?i)`, `\z`), strings in code points, object equality, and strings of format
 * date-time, duration and byte as timestamp, duration and bytes. The same CRD and cases run
 * against kube-apiserver 1.36.3 in the corpus test (../corpus/fidelity.ts), which decided them.
 */
import { describe, expect, it } from 'vitest';
import { admitCrd, decodeCustomObject, validateCustomObject, type CrdLike, type JsonObject } from '../../../src/internal/semantics/index.js';
import { FIDELITY_CRD } from '../corpus/fidelity.js';

const crd = FIDELITY_CRD as unknown as CrdLike;

function errors(spec: JsonObject, oldSpec?: JsonObject): string[] {
  const wrap = (s: JsonObject) => decodeCustomObject({ crd, version: 'v1', object: { apiVersion: 'corpus.opgen.dev/v1', kind: 'Fidelity', metadata: { name: 'f' }, spec: s } }).object;
  return validateCustomObject({ crd, version: 'v1', object: wrap(spec), oldObject: oldSpec && wrap(oldSpec) }).map((e) => `${e.field}: ${e.detail}`);
}

describe('CEL and schema semantics as cel-go and Go have them', () => {
  it('admits the CRD: object equality and RE2 literals type-check', () => {
    expect(admitCrd(crd)).toEqual([]);
  });

  it('compares objects and lists of objects', () => {
    expect(errors({ ref: { name: 'a' } }, { ref: { name: 'a' } })).toEqual([]);
    expect(errors({ ref: { name: 'b' } }, { ref: { name: 'a' } })).toEqual(['spec.ref: ref is immutable']);
    expect(errors({ items: [{ a: 'x' }, { a: 'x' }] })).toEqual(['spec.items: items are unique']);
  });

  it('matches with RE2 in rules and patterns', () => {
    expect(errors({ name: 'ABc', code: 'ABc' })).toEqual([]);
    expect(errors({ name: 'ab1', code: 'ab\n' })).toEqual(["spec.code: spec.code in body should match '(?i)^[a-z]+\\z'", 'spec.name: letters only']);
  });

  it('counts strings in code points; lowerAscii and upperAscii change ASCII only; findAll skips an empty match after a match', () => {
    expect(errors({ text: 'a😀bÉbxé' })).toEqual([]);
  });

  it('types date-time, duration and byte strings as timestamp, duration and bytes', () => {
    expect(errors({ when: '2029-06-01T10:00:00Z', wait: '30m', blob: 'AAAA' })).toEqual([]);
    expect(errors({ when: '2031-01-01T00:00:00Z', wait: '2h', blob: 'AAAAAAA=' })).toEqual(['spec.when: before 2030', 'spec.wait: at most an hour', 'spec.blob: at most 4 bytes']);
    expect(errors({ at: '2029-06-01T10:00:00.500Z', span: '90m' })).toEqual([]);
    expect(errors({ at: '2029-06-01T10:00:00Z', span: '1h' })).toEqual(['spec.at: string of a timestamp', 'spec.span: string of a duration']);
  });
});
