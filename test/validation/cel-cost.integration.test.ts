import { createClient, isInvalid, kinds } from '@opgen/runtime';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { checkCelTypes } from '@opgen/runtime/internal/cel';

// opgen's estimate of a CEL rule's cost against kube-apiserver 1.36.3's, at the edge of the
// budget: each shape's bound is searched with opgen's estimate for the largest value opgen
// accepts, then the CRD is installed with that bound (the API server must accept it) and with
// one more (it must refuse it). A constant off by one anywhere in the estimate moves the edge,
// and one of the two installs disagrees.

interface Shape {
  name: string;
  /** The spec schema with the bound set to n. */
  spec(n: number): JSONSchemaProps;
  /** Where the search starts and ends. */
  range: [number, number];
}

const str = (extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({ type: 'string', ...extra });
const rules = (...list: (string | { rule: string; messageExpression: string })[]) => list.map((r) => (typeof r === 'string' ? { rule: r } : r));

const shapes: Shape[] = [
  {
    name: 'all() over a bounded list (maxItems)',
    range: [1, 10_000_000],
    spec: (n) => ({ type: 'object', 'x-kubernetes-validations': rules('self.tags.all(t, t.size() > 1)'), properties: { tags: { type: 'array', maxItems: n, items: str({ maxLength: 10 }) } } }),
  },
  {
    name: 'exists() with contains() on the items (maxLength)',
    range: [1, 100_000_000],
    spec: (n) => ({ type: 'object', 'x-kubernetes-validations': rules("self.tags.exists(t, t.contains('abc'))"), properties: { tags: { type: 'array', maxItems: 100, items: str({ maxLength: n }) } } }),
  },
  {
    name: 'matches() on a string (maxLength)',
    range: [1, 100_000_000],
    spec: (n) => ({ type: 'object', 'x-kubernetes-validations': rules("self.name.matches('^[a-z]+[0-9]*$')"), properties: { name: str({ maxLength: n }) } }),
  },
  {
    name: 'a map iterated by key, its values indexed (maxProperties)',
    range: [1, 10_000_000],
    spec: (n) => ({ type: 'object', 'x-kubernetes-validations': rules("self.labels.all(k, self.labels[k].startsWith('a') && k != 'x')"), properties: { labels: { type: 'object', maxProperties: n, additionalProperties: str({ maxLength: 63 }) } } }),
  },
  {
    name: 'isSorted() on strings (maxLength)',
    range: [1, 100_000_000],
    spec: (n) => ({ type: 'object', 'x-kubernetes-validations': rules('self.tags.isSorted()'), properties: { tags: { type: 'array', maxItems: 64, items: str({ maxLength: n }) } } }),
  },
  {
    name: 'a rule on list items, run once per item (maxItems of the list)',
    range: [1, 100_000_000],
    spec: (n) => ({
      type: 'object',
      properties: { items: { type: 'array', maxItems: n, items: { type: 'object', 'x-kubernetes-validations': rules("self.name.startsWith('ab') || self.name == 'x'"), properties: { name: str({ maxLength: 40 }) } } } },
    }),
  },
  {
    name: 'a rule on the items of an unbounded list, run as often as items fit in a request (maxLength)',
    range: [1, 100_000_000],
    spec: (n) => ({
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', required: ['name'], 'x-kubernetes-validations': rules("self.name.contains('a')"), properties: { name: str({ maxLength: n }) } } },
      },
    }),
  },
  {
    name: 'map(), filter() and exists_one() (maxItems)',
    range: [1, 10_000_000],
    spec: (n) => ({
      type: 'object',
      'x-kubernetes-validations': rules("self.tags.map(t, t + '-x').filter(t, t.endsWith('x')).size() > 0 && self.tags.exists_one(t, t == 'a')"),
      properties: { tags: { type: 'array', maxItems: n, items: str({ maxLength: 8 }) } },
    }),
  },
  {
    name: 'a messageExpression (maxLength)',
    range: [1, 100_000_000],
    spec: (n) => ({
      type: 'object',
      'x-kubernetes-validations': rules({ rule: 'self.replicas > 0', messageExpression: "'bad name ' + self.name.lowerAscii() + ' ' + self.name.upperAscii()" }),
      properties: { replicas: { type: 'integer' }, name: str({ maxLength: n }) },
    }),
  },
  {
    name: 'a string enum without maxLength (its longest value), split() and replace()',
    range: [1, 1_000_000],
    spec: (n) => ({
      type: 'object',
      'x-kubernetes-validations': rules("self.modes.all(m, m.split('-').size() < 3 && m.replace('-', '_') != 'a')"),
      properties: { modes: { type: 'array', maxItems: n, items: str({ enum: ['read-only', 'read-write', 'a'] }) } },
    }),
  },
  {
    name: "'in' a list, string concatenation compared (maxItems, maxLength)",
    range: [1, 10_000_000],
    spec: (n) => ({
      type: 'object',
      'x-kubernetes-validations': rules('self.names.all(x, x in self.allowed && x + self.suffix != self.suffix)'),
      properties: { names: { type: 'array', maxItems: 20, items: str({ maxLength: 30 }) }, allowed: { type: 'array', maxItems: n, items: str({ maxLength: 30 }) }, suffix: str({ maxLength: 16 }) },
    }),
  },
  {
    name: 'url(), isURL() and indexOf() on strings (maxLength)',
    range: [1, 100_000_000],
    spec: (n) => ({ type: 'object', 'x-kubernetes-validations': rules("isURL(self.endpoint) && url(self.endpoint).getHost() != '' && self.endpoint.indexOf('/') >= 0"), properties: { endpoint: str({ maxLength: n }) } }),
  },
  {
    name: 'quantity(), ip() and cidr() as global calls (maxItems)',
    range: [1, 10_000_000],
    spec: (n) => ({
      type: 'object',
      'x-kubernetes-validations': rules("self.values.all(v, isQuantity(v) && quantity(v).isGreaterThan(quantity('1')) || isIP(v) && ip(v).family() == 4 || isCIDR(v) && cidr(v).containsIP(ip('10.0.0.1')))"),
      properties: { values: { type: 'array', maxItems: n, items: str({ maxLength: 64 }) } },
    }),
  },
  {
    name: 'int-or-string values by type (maxLength)',
    range: [1, 100_000_000],
    spec: (n) => ({
      type: 'object',
      'x-kubernetes-validations': rules("self.sizes.all(s, type(s) == string ? s.endsWith('%') && s.contains('.') : s > 0)"),
      properties: { sizes: { type: 'array', maxItems: 50, items: { 'x-kubernetes-int-or-string': true, maxLength: n } } },
    }),
  },
  {
    name: 'a transition rule, has() and a map literal (maxItems)',
    range: [1, 10_000_000],
    spec: (n) => ({
      type: 'object',
      'x-kubernetes-validations': rules("self.tags.size() >= oldSelf.tags.size() && self.tags.all(t, has(self.tags) && {'a': 1, 'b': 2}[t] > 0)"),
      properties: { tags: { type: 'array', maxItems: n, items: str({ maxLength: 5 }) } },
    }),
  },
  {
    name: "a version's rules together (the per-CRD total, maxItems)",
    range: [1, 10_000_000],
    spec: (n) => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`list${i}`, { type: 'array', maxItems: i === 0 ? n : 1_500_000, 'x-kubernetes-validations': rules('self.all(t, t > 0)'), items: { type: 'integer' } }]),
      ),
    }),
  },
];

function schema(spec: JSONSchemaProps): JSONSchemaProps {
  return { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec } };
}

const accepted = (shape: Shape, n: number) => checkCelTypes(schema(shape.spec(n))).length === 0;

/** The largest bound opgen accepts; checks opgen refuses the one after. */
function edge(shape: Shape): number {
  let [lo, hi] = shape.range;
  expect(accepted(shape, lo), `${shape.name}: accepted at ${lo}`).toBe(true);
  expect(accepted(shape, hi), `${shape.name}: refused at ${hi}`).toBe(false);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (accepted(shape, mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

let cp: ControlPlane;
beforeAll(async () => {
  cp = await startControlPlane();
}, 120_000);
afterAll(async () => {
  await cp?.stop();
});

async function install(index: number, spec: JSONSchemaProps): Promise<string | false> {
  const client = createClient(cp.kubeConfig);
  const plural = `costs${index}`;
  const crd: kinds.CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.cost.example.com` },
    spec: {
      group: 'cost.example.com',
      scope: 'Namespaced',
      names: { plural, singular: `cost${index}`, kind: `Cost${index}`, listKind: `Cost${index}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema(spec) as never } }],
    },
  };
  try {
    await client.create(kinds.CustomResourceDefinition, crd);
    return false;
  } catch (error) {
    if (!isInvalid(error)) throw error;
    return (error as Error).message;
  }
}

describe("opgen's CEL cost estimate gives kube-apiserver 1.36.3's verdict at the edge of its budget", () => {
  it.each(shapes.map((s, i) => [s.name, s, i] as const))('%s', async (_name, shape, i) => {
    const n = edge(shape);
    const under = await install(i * 2, shape.spec(n));
    const over = await install(i * 2 + 1, shape.spec(n + 1));
    expect({ bound: n, under }).toEqual({ bound: n, under: false });
    expect(over, `the API server accepted ${shape.name} at ${n + 1}, one over opgen's edge`).toMatch(/exceeds budget by factor of/);
  }, 60_000);
});
