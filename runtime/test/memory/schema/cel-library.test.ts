/**
 * Kubernetes' CEL extension functions in rules: lists, quantity, ip/cidr, url, regex and
 * strings. The expected messages were answered by kube-apiserver 1.36.3 for this CRD.
 */
import { describe, expect, it } from 'vitest';
import { admitCrd, decodeCustomObject, invalidMessage, validateCustomObject, type CrdLike, type JsonObject } from '../../../src/internal/semantics/index.js';

const crd: CrdLike = {
  metadata: { name: 'libs.probe.example.com' },
  spec: {
    group: 'probe.example.com',
    scope: 'Namespaced',
    names: { plural: 'libs', singular: 'lib', kind: 'Lib', listKind: 'LibList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  s: { type: 'string', maxLength: 64 },
                  l: { type: 'array', maxItems: 10, items: { type: 'integer' } },
                  q: { type: 'string', maxLength: 20 },
                  ip: { type: 'string', maxLength: 50 },
                  u: { type: 'string', maxLength: 100 },
                  n: { type: 'number' },
                },
                'x-kubernetes-validations': [
                  { rule: '!has(self.l) || self.l.isSorted()', message: 'l sorted' },
                  { rule: '!has(self.l) || self.l.sum() < 100', message: 'l sum' },
                  { rule: "!has(self.q) || (isQuantity(self.q) && quantity(self.q).isLessThan(quantity('2Gi')))", message: 'q small' },
                  { rule: "!has(self.ip) || (isCIDR(self.ip) && cidr(self.ip).containsIP('10.0.0.1'))", message: 'cidr has 10.0.0.1' },
                  { rule: "!has(self.u) || (isURL(self.u) && url(self.u).getScheme() == 'https')", message: 'https' },
                  { rule: "!has(self.s) || self.s.find('[0-9]+') != '7'", messageExpression: "'found ' + self.s.find('[0-9]+')" },
                  { rule: '!has(self.n) || self.n > 1', message: 'n' },
                  { rule: "!has(self.s) || self.s.charAt(0) != 'z'", message: 'charAt' },
                ],
              },
            },
          },
        },
      },
    ],
  },
};

function check(name: string, spec: JsonObject): string | undefined {
  const { object } = decodeCustomObject({ crd, version: 'v1', object: { apiVersion: 'probe.example.com/v1', kind: 'Lib', metadata: { name }, spec } });
  const errors = validateCustomObject({ crd, version: 'v1', object });
  return errors.length === 0 ? undefined : invalidMessage('Lib.probe.example.com', name, errors);
}

describe("Kubernetes' CEL libraries", () => {
  it('admits the CRD', () => {
    expect(admitCrd(crd)).toEqual([]);
  });

  it('passes values every rule accepts', () => {
    expect(check('ok', { s: 'a1', l: [1, 2, 3], q: '1Gi', ip: '10.0.0.0/8', u: 'https://x.y/z', n: 2 })).toBeUndefined();
    expect(check('n-int', { n: 1.5 })).toBeUndefined();
  });

  it('fails each rule with its message, in the order the rules are written', () => {
    expect(check('bad-all', { s: 'z7', l: [3, 2, 99], q: '3Gi', ip: '192.168.0.0/16', u: 'http://x', n: 1 })).toBe(
      'Lib.probe.example.com "bad-all" is invalid: [spec: Invalid value: l sorted, spec: Invalid value: l sum, spec: Invalid value: q small, spec: Invalid value: cidr has 10.0.0.1, spec: Invalid value: https, spec: Invalid value: found 7, spec: Invalid value: n, spec: Invalid value: charAt]',
    );
  });

  it('treats a string that is no quantity as failing isQuantity', () => {
    expect(check('bad-quantity', { q: 'abc' })).toBe('Lib.probe.example.com "bad-quantity" is invalid: spec: Invalid value: q small');
  });
});

describe('has() of a field of a computed value', () => {
  const owned: CrdLike = structuredClone(crd);
  owned.spec.versions[0]!.schema!.openAPIV3Schema!.properties!.spec!['x-kubernetes-validations'] = [
    { rule: '!oldSelf.hasValue() || !has(oldSelf.value().s) || (has(self.s) && self.s == oldSelf.value().s)', optionalOldSelf: true, message: 's is set once' },
  ];
  const write = (spec: JsonObject, old?: JsonObject) => {
    const object = { apiVersion: 'probe.example.com/v1', kind: 'Lib', metadata: { name: 'o' }, spec };
    const oldObject = old && { ...object, spec: old };
    return validateCustomObject({ crd: owned, version: 'v1', object, oldObject }).map((e) => `${e.field}: ${e.detail}`);
  };

  it('evaluates rules cel-js could not parse as written (has(oldSelf.value().s))', () => {
    expect(write({ s: 'a' })).toEqual([]);
    expect(write({ s: 'a' }, {})).toEqual([]);
    expect(write({ s: 'b' }, { s: 'a' })).toEqual(['spec: s is set once']);
    expect(write({}, { s: 'a' })).toEqual(['spec: s is set once']);
  });
});
