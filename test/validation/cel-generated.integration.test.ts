import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '@opgen/runtime';
import { ApiError } from '@opgen/runtime/rest';
import { checkCelTypes } from '@opgen/runtime/internal/cel';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import type { JSONSchemaProps } from '../../src/schema/types.js';

// The CEL type checker that `opgen manifests` and the memory cluster share, against
// kube-apiserver 1.36.3 on rules nobody picked: every template below applied to every field
// (and every pair of fields) of a schema with one field of each kind the API server types
// differently. Each batch of rules is one CRD; the API server names each refused rule in a
// cause, so the two verdicts compare rule by rule.

const text = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'string', maxLength: 10, ...extra });
const FIELDS: Record<string, JSONSchemaProps> = {
  i: { type: 'integer' },
  d: { type: 'number' },
  s: text(),
  b: { type: 'boolean' },
  t: text({ format: 'date-time', maxLength: 40 }),
  dur: text({ format: 'duration' }),
  by: text({ format: 'byte' }),
  l: { type: 'array', maxItems: 5, items: text() },
  li: { type: 'array', maxItems: 5, items: { type: 'integer' } },
  m: { type: 'object', maxProperties: 5, additionalProperties: text() },
  o: { type: 'object', properties: { a: text() } },
  ios: { 'x-kubernetes-int-or-string': true },
  lo: { type: 'array', maxItems: 5, items: { type: 'object', properties: { name: text() } } },
  u: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  ls: { type: 'array', maxItems: 5, 'x-kubernetes-list-type': 'set', items: text() },
  q: text({ format: 'quantity' }),
  ip: text({ format: 'ipv4' }),
  e: text({ enum: ['a', 'b'] }),
};
const ONE_FIELD = [
  'self.X', 'self.X.a', 'self.X.size()', 'size(self.X)', "self.X.startsWith('a')", "self.X.matches('a')",
  "self.X.contains('a')", 'self.X.all(e, true)', 'self.X.exists(e, true)', 'self.X.exists_one(e, true)',
  'self.X.map(e, e)', 'self.X.filter(e, true)', 'int(self.X)', 'uint(self.X)', 'string(self.X)',
  'double(self.X)', 'bool(self.X)', 'bytes(self.X)', 'duration(self.X)', 'timestamp(self.X)', 'dyn(self.X)',
  'self.X.getHours()', 'self.X.getFullYear()', 'self.X.getSeconds()', 'self.X.seconds', 'self.X[0]',
  "self.X['a']", 'has(self.X)', 'has(self.X.a)', '!self.X', '-self.X', 'self.X ? true : false',
  'type(self.X) == string', 'self.X.lowerAscii()', "self.X.split(',')", "self.X.join(',')",
  'self.X.indexOf(1)', 'self.X.isSorted()', 'self.X.sum()', 'self.X.min()', 'isQuantity(self.X)',
  'quantity(self.X)', 'isIP(self.X)', 'ip(self.X)', 'url(self.X)', 'self.X == oldSelf.X',
  'self.X.orValue(1)', 'self.?X', 'self.X.hasValue()', 'self.X.asInteger()', 'self.X.value()',
];
const TWO_FIELDS = ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', 'in', '&&', '||'];

/** The rules the checker still accepts although the API server refuses them, each with why (none left). */
const KNOWN_ACCEPTED: Record<string, string> = {};

function generatedRules(): string[] {
  const names = Object.keys(FIELDS);
  const rules = ONE_FIELD.flatMap((template) => names.map((x) => template.replaceAll('X', x)));
  for (const op of TWO_FIELDS) for (const x of names) for (const y of names) rules.push(`self.${x} ${op} self.${y}`);
  return rules;
}

/** The indexes of the rules of `schema.properties.spec` the API server refuses, from its causes. */
async function refusedByTheApiServer(client: Client, name: string, schema: JSONSchemaProps): Promise<Set<number>> {
  const plural = `${name}s`;
  const crd = {
    metadata: { name: `${plural}.cel.opgen.dev` },
    spec: {
      group: 'cel.opgen.dev',
      names: { kind: name[0]!.toUpperCase() + name.slice(1), plural, singular: name, listKind: `${name[0]!.toUpperCase()}${name.slice(1)}List` },
      scope: 'Namespaced' as const,
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
  try {
    await client.create(kinds.CustomResourceDefinition, crd as kinds.CustomResourceDefinition);
    return new Set();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 422) throw error;
    const refused = new Set<number>();
    for (const cause of error.status?.details?.causes ?? []) {
      const rule = /x-kubernetes-validations\[(\d+)\]/.exec(cause.field ?? '');
      if (!rule) throw new Error(`a refusal of something else than a rule: ${cause.field}: ${cause.message}`);
      refused.add(Number(rule[1]));
    }
    return refused;
  }
}

describe('the CEL type checker on generated rules, against kube-apiserver 1.36.3', () => {
  let controlPlane: ControlPlane;
  const acceptedByUsOnly: string[] = [];
  const refusedByUsOnly: string[] = [];
  let compared = 0;

  beforeAll(async () => {
    controlPlane = await startControlPlane();
    const client = createClient(controlPlane.kubeConfig);
    const rules = generatedRules();
    const batch = 150;
    for (let start = 0; start < rules.length; start += batch) {
      const rulesOfBatch = rules.slice(start, start + batch);
      const spec: JSONSchemaProps = { type: 'object', properties: FIELDS, 'x-kubernetes-validations': rulesOfBatch.map((rule) => ({ rule })) };
      const schema: JSONSchemaProps = { type: 'object', properties: { spec } };
      const ours = new Set(checkCelTypes(schema).map((problem) => rulesOfBatch.indexOf(problem.rule.rule)));
      const theirs = await refusedByTheApiServer(client, `batch${start}`, schema);
      rulesOfBatch.forEach((rule, index) => {
        if (theirs.has(index) && !ours.has(index)) acceptedByUsOnly.push(rule);
        if (ours.has(index) && !theirs.has(index)) refusedByUsOnly.push(rule);
      });
      compared += rulesOfBatch.length;
    }
  }, 300_000);

  afterAll(async () => controlPlane?.stop());

  it('refuses no rule the API server accepts', () => {
    expect(compared).toBeGreaterThan(4000);
    expect(refusedByUsOnly).toEqual([]);
  });

  it('refuses every rule the API server refuses, but the known ones', () => {
    expect(acceptedByUsOnly.sort()).toEqual(Object.keys(KNOWN_ACCEPTED).sort());
  });
});
