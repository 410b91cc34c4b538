/**
 * CEL and schema semantics that the corpus' CRDs lean on, as cases both tiers must answer
 * alike: equality of objects and lists of objects (`self == oldSelf`), RE2 (`(?i)` in
 * `matches` and in `pattern`, patterns RE2 refuses), strings counted in code points, and
 * strings of format date-time, duration and byte typed as timestamp, duration and bytes.
 *
 * @module
 */

const GROUP = 'corpus.opgen.dev';
const PLURAL = 'fidelities';
const OBJECTS = `/apis/${GROUP}/v1/namespaces/default/${PLURAL}`;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crd(name: string, kind: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: name, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } } }],
    },
  };
}

export const FIDELITY_CRD = crd(PLURAL, 'Fidelity', {
  ref: { type: 'object', properties: { name: { type: 'string', maxLength: 16 }, kind: { type: 'string', maxLength: 16 } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'ref is immutable' }] },
  replicas: { type: 'integer' },
  items: {
    type: 'array',
    maxItems: 8,
    items: { type: 'object', properties: { a: { type: 'string', maxLength: 8 } } },
    'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists_one(y, x == y))', message: 'items are unique' }],
  },
  name: { type: 'string', maxLength: 16, 'x-kubernetes-validations': [{ rule: "self.matches('(?i)^[a-z]+$')", message: 'letters only' }] },
  code: { type: 'string', maxLength: 16, pattern: '(?i)^[a-z]+\\z' },
  text: {
    type: 'string',
    maxLength: 16,
    // Each rule states cel-go's answer for the text 'a😀bÉbxé' (seven code points, eight UTF-16 units).
    'x-kubernetes-validations': [
      { rule: 'self.size() == 7', message: 'size' },
      { rule: "self.lowerAscii() == 'a😀bÉbxé' && self.upperAscii() == 'A😀BÉBXé'", message: 'lowerAscii, upperAscii' },
      { rule: "self.indexOf('b') == 2 && self.indexOf('b', 3) == 4 && self.lastIndexOf('b') == 4", message: 'indexOf, lastIndexOf' },
      { rule: "self.substring(1, 3) == '😀b' && self.substring(2) == 'bÉbxé'", message: 'substring' },
      { rule: "self.charAt(1) == '😀'", message: 'charAt' },
      { rule: "self.find('[a-z]+') == 'a' && self.findAll('(?i)[a-zé]') == ['a', 'b', 'É', 'b', 'x', 'é']", message: 'find, findAll' },
      { rule: "self.findAll('x*') == ['', '', '', '', '', 'x', ''] && self.findAll('x*', 2).size() == 2", message: 'findAll of empty matches' },
    ],
  },
  when: { type: 'string', format: 'date-time', 'x-kubernetes-validations': [{ rule: "self < timestamp('2030-01-01T00:00:00Z')", message: 'before 2030' }] },
  wait: { type: 'string', format: 'duration', 'x-kubernetes-validations': [{ rule: "self <= duration('1h')", message: 'at most an hour' }] },
  at: { type: 'string', format: 'date-time', 'x-kubernetes-validations': [{ rule: "string(self) == '2029-06-01T10:00:00.5Z'", message: 'string of a timestamp' }] },
  span: { type: 'string', format: 'duration', 'x-kubernetes-validations': [{ rule: "string(self) == '5400s'", message: 'string of a duration' }] },
  blob: { type: 'string', format: 'byte', maxLength: 64, 'x-kubernetes-validations': [{ rule: 'size(self) <= 4', message: 'at most 4 bytes' }] },
});

const object = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/v1`, kind: 'Fidelity', metadata: { name }, spec });
const create = (name: string, spec: Record<string, unknown>) => ({ method: 'POST' as const, path: OBJECTS, body: object(name, spec) });
const patch = (name: string, spec: Record<string, unknown>) => ({ method: 'PATCH' as const, path: `${OBJECTS}/${name}`, body: { spec } });
const createCrd = (body: unknown) => ({ method: 'POST' as const, path: CRDS, body });

export interface FidelityCase {
  name: string;
  steps: Array<{ method: 'POST' | 'PATCH'; path: string; body: unknown }>;
  /** The real API server's codes, so that a case cannot pass by both tiers failing alike. */
  expected: Array<number | '2xx'>;
}

export const fidelityCases: FidelityCase[] = [
  { name: 'self == oldSelf on an object refuses a change', steps: [create('eq1', { ref: { name: 'a' } }), patch('eq1', { ref: { name: 'b' } })], expected: ['2xx', 422] },
  { name: 'self == oldSelf on an object allows the same object', steps: [create('eq2', { ref: { name: 'a' } }), patch('eq2', { ref: { name: 'a' }, replicas: 2 })], expected: ['2xx', '2xx'] },
  { name: 'x == y over a list of objects', steps: [create('eq3', { items: [{ a: 'x' }, { a: 'y' }] }), create('eq4', { items: [{ a: 'x' }, { a: 'x' }] })], expected: ['2xx', 422] },
  { name: "matches('(?i)…') is RE2", steps: [create('re1', { name: 'ABc' }), create('re2', { name: 'ab1' })], expected: ['2xx', 422] },
  { name: 'a schema pattern (?i)…\\z is RE2', steps: [create('re3', { code: 'ABc' }), create('re4', { code: 'a-b' })], expected: ['2xx', 422] },
  { name: 'string functions count code points, lowerAscii and upperAscii change ASCII only', steps: [create('cp1', { text: 'a😀bÉbxé' })], expected: ['2xx'] },
  { name: 'a date-time is a timestamp', steps: [create('ts1', { when: '2029-06-01T10:00:00Z' }), create('ts2', { when: '2031-01-01T00:00:00Z' })], expected: ['2xx', 422] },
  { name: 'a duration is a duration', steps: [create('du1', { wait: '30m' }), create('du2', { wait: '2h' })], expected: ['2xx', 422] },
  { name: 'string() of a timestamp and of a duration', steps: [create('st1', { at: '2029-06-01T10:00:00.500Z', span: '90m' }), create('st2', { at: '2029-06-01T10:00:00Z', span: '1h' })], expected: ['2xx', 422] },
  { name: 'a byte string is bytes', steps: [create('by1', { blob: 'AAAA' }), create('by2', { blob: 'AAAAAAA=' })], expected: ['2xx', 422] },
  { name: 'a CRD whose pattern RE2 refuses (a backreference) is refused', steps: [createCrd(crd('backrefs', 'Backref', { s: { type: 'string', pattern: '^(a)\\1$' } }))], expected: [422] },
  { name: 'a CRD whose pattern RE2 refuses (a lookahead) is refused', steps: [createCrd(crd('lookaheads', 'Lookahead', { s: { type: 'string', pattern: '^(?!kube-).*$' } }))], expected: [422] },
  { name: "a CRD whose rule's regex RE2 refuses", steps: [createCrd(crd('ruleregexes', 'RuleRegex', { s: { type: 'string', maxLength: 8, 'x-kubernetes-validations': [{ rule: "self.matches('(?=a)')" }] } }))], expected: [422] },
];
