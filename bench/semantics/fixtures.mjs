// Cases written here for what the issue names: RE2's `(?i)` in a schema pattern and in CEL's
// matches(), `self == oldSelf` on an object and `==` over a list of objects, date-time typed
// as a timestamp, strings counted in code points; and Crossplane's immutable compositeTypeRef
// on update.

export const fixtureCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.fidelity.opgen.dev' },
  spec: {
    group: 'fidelity.opgen.dev',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
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
                  name: { type: 'string', pattern: '(?i)^[a-z]+$', maxLength: 20 },
                  code: { type: 'string', maxLength: 20, 'x-kubernetes-validations': [{ rule: "self.matches('(?i)^abc')", message: 'starts with abc' }] },
                  ref: {
                    type: 'object',
                    properties: { kind: { type: 'string', maxLength: 20 }, name: { type: 'string', maxLength: 20 } },
                    'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'ref is immutable' }],
                  },
                  items: {
                    type: 'array',
                    maxItems: 4,
                    items: { type: 'object', properties: { a: { type: 'string', maxLength: 8 } } },
                    'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists_one(y, x == y))', message: 'items are unique' }],
                  },
                  when: { type: 'string', format: 'date-time', 'x-kubernetes-validations': [{ rule: "self < timestamp('2100-01-01T00:00:00Z')", message: 'before 2100' }] },
                  text: { type: 'string', maxLength: 8, 'x-kubernetes-validations': [{ rule: "self.substring(1, 2) == '😀'", message: 'second code point is 😀' }] },
                },
              },
            },
          },
        },
      },
    ],
  },
};

const widget = (spec) => ({ apiVersion: 'fidelity.opgen.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default', resourceVersion: '1' }, spec });
// Without `name`: the memory cluster throws on its `(?i)` pattern, which would hide the other cases.
const valid = { code: 'ABCdef', ref: { kind: 'K', name: 'n' }, items: [{ a: '1' }, { a: '2' }], when: '2030-01-02T03:04:05Z', text: 'a😀b' };

/** Create and update cases on the fixture CRD and on Crossplane's Composition. */
export function fixtureCases(crossplaneCrds) {
  const cases = [
    { name: 'valid widget', object: widget(valid) },
    { name: 'pattern (?i) accepts MixedCase', object: widget({ ...valid, name: 'MixedCase' }) },
    { name: 'pattern (?i) refuses digits', object: widget({ ...valid, name: 'abc1' }) },
    { name: "matches('(?i)') refuses xyz", object: widget({ ...valid, code: 'xyz' }) },
    { name: 'list of objects with a duplicate', object: widget({ ...valid, items: [{ a: '1' }, { a: '1' }] }) },
    { name: 'date-time after 2100', object: widget({ ...valid, when: '2200-01-01T00:00:00Z' }) },
    { name: 'substring counts code points', object: widget({ ...valid, text: 'x😀' }) },
    { name: 'update keeping ref', object: widget({ ...valid, code: 'abc2' }), oldObject: widget(valid) },
    { name: 'update changing ref', object: widget({ ...valid, ref: { kind: 'K', name: 'other' } }), oldObject: widget(valid) },
  ].map((c) => ({ ...c, crd: fixtureCrd, version: 'v1' }));
  const composition = crossplaneCrds.find((c) => c.metadata.name === 'compositions.apiextensions.crossplane.io');
  if (composition) {
    const version = composition.spec.versions.find((v) => v.storage).name;
    const object = (kind) => ({
      apiVersion: `apiextensions.crossplane.io/${version}`,
      kind: 'Composition',
      metadata: { name: 'c', resourceVersion: '1' },
      spec: { compositeTypeRef: { apiVersion: 'example.org/v1', kind }, mode: 'Pipeline', pipeline: [{ step: 'one', functionRef: { name: 'f' } }] },
    });
    cases.push(
      { name: 'Composition create', crd: composition, version, object: object('XR') },
      { name: 'Composition update keeping compositeTypeRef', crd: composition, version, object: object('XR'), oldObject: object('XR') },
      { name: 'Composition update changing compositeTypeRef', crd: composition, version, object: object('YR'), oldObject: object('XR') },
    );
  }
  return cases;
}
