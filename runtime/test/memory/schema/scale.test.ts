/**
 * The scale subresource's replicas and selector paths, checked on every write; the messages
 * (and their place after the schema's errors) are kube-apiserver 1.36.3's for this CRD.
 */
import { describe, expect, it } from 'vitest';
import { decodeCustomObject, invalidMessage, validateCustomObject, type CrdLike, type JsonObject } from '../../../src/internal/semantics/index.js';

const crd: CrdLike = {
  metadata: { name: 'scalers.probe.example.com' },
  spec: {
    group: 'probe.example.com',
    scope: 'Namespaced',
    names: { plural: 'scalers', singular: 'scaler', kind: 'Scaler', listKind: 'ScalerList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', required: ['name'], properties: { replicas: { type: 'integer' }, name: { type: 'string' }, color: { type: 'string', enum: ['red'] } }, 'x-kubernetes-validations': [{ rule: 'true' }] },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

function create(name: string, spec: JsonObject): string | undefined {
  const { object } = decodeCustomObject({ crd, version: 'v1', object: { apiVersion: 'probe.example.com/v1', kind: 'Scaler', metadata: { name }, spec } });
  const errors = validateCustomObject({ crd, version: 'v1', object });
  return errors.length === 0 ? undefined : invalidMessage('Scaler.probe.example.com', name, errors);
}

const NOT_CHECKED = '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

describe('the scale subresource on writes', () => {
  it('refuses replicas that are not an integer, after the schema error', () => {
    expect(create('str', { name: 'a', replicas: 'three' })).toBe(
      `Scaler.probe.example.com "str" is invalid: [spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string", .spec.replicas: Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64, ${NOT_CHECKED}]`,
    );
    expect(create('float', { name: 'a', replicas: 1.5 })).toBe(
      `Scaler.probe.example.com "float" is invalid: [spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number", <nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.replicas, .spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64, ${NOT_CHECKED}]`,
    );
  });

  it('refuses negative replicas and replicas beyond int32', () => {
    expect(create('neg', { name: 'a', replicas: -1 })).toBe('Scaler.probe.example.com "neg" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer');
    expect(create('big', { name: 'a', replicas: 3000000000 })).toBe('Scaler.probe.example.com "big" is invalid: .spec.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647');
  });

  it('accepts replicas in range, and an object without them', () => {
    expect(create('ok', { name: 'a', replicas: 3 })).toBeUndefined();
    expect(create('none', { name: 'a' })).toBeUndefined();
  });
});
