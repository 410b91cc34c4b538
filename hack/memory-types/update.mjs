// Regenerates runtime/src/testing/memory/types/builtin.generated.ts: for every built-in kind
// of the pinned Kubernetes release, the type information the memory cluster's server-side
// apply and strategic merge patch need (list types and list-map keys, map types, deduced
// values, patch strategies and merge keys), read from hack/openapi/kubernetes-openapi.json
// with the same conversion custom resources' schemas go through.
//
//   npx tsc -b runtime && node hack/memory-types/update.mjs           rewrite the file
//   npx tsc -b runtime && node hack/memory-types/update.mjs --check   exit 1 if it is stale
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sortKeys, writeOrCheck } from '../lib/generated-file.mjs';
import { toTypeRef, UNTYPED_DEFINITIONS } from '../../runtime/dist/testing/memory/types/from-openapi.js';
import { TYPE_KEYWORDS as keywords } from '../../runtime/dist/testing/memory/types/schema.js';

const path = (relative) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));
const { kubernetesVersion, schemas } = JSON.parse(readFileSync(path('hack/openapi/kubernetes-openapi.json'), 'utf8'));
const output = path('runtime/src/testing/memory/types/builtin.generated.ts');

// Kinds: definitions that name exactly one group-version-kind (DeleteOptions and WatchEvent
// name one per group-version and are never stored).
const kinds = {};
for (const [name, schema] of Object.entries(schemas)) {
  const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
  if (gvks.length !== 1) continue;
  const { group, version, kind } = gvks[0];
  kinds[`${group ? `${group}/` : ''}${version}/${kind}`] = name;
}

// Every named type a kind reaches, converted.
const converted = {};
const pending = Object.values(kinds);
while (pending.length > 0) {
  const name = pending.pop();
  if (name in converted) continue;
  const schema = schemas[name];
  if (!schema) throw new Error(`${name} is referred to but not defined`);
  converted[name] = UNTYPED_DEFINITIONS.has(name) ? 'any' : toTypeRef(schema);
  // A Go field without omitempty is never absent from the kind's zero value (a struct is `{}`,
  // a slice or map null): the "live" object a create is compared with when the server records
  // who set which field. openapi-gen gives such a struct `default: {}` and marks such a field required.
  const zero = {};
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    if (JSON.stringify(property.default) === '{}') zero[field] = {};
    else if ((schema.required ?? []).includes(field) && (property.type === 'array' || property.additionalProperties)) zero[field] = null;
  }
  if (Object.keys(zero).length > 0) converted[name] = { ...converted[name], zero: sortKeys(zero) };
  for (const ref of references(converted[name])) if (!(ref in converted)) pending.push(ref);
}

// A named type that is only a keyword (Time, IntOrString, MicroTime…) is written where it is used.
const inline = (ref) => {
  if (typeof ref === 'string') return keywords.has(converted[ref]) ? converted[ref] : ref;
  if ('ref' in ref) return keywords.has(converted[ref.ref]) ? converted[ref.ref] : ref;
  const out = { ...ref };
  if ('list' in ref) out.list = inline(ref.list);
  if (ref.values !== undefined) out.values = inline(ref.values);
  if (ref.fields) out.fields = Object.fromEntries(Object.entries(ref.fields).map(([k, v]) => [k, inline(v)]));
  return out;
};
// A list-map item that leaves out a key field is keyed by that field's default.
const withKeyDefaults = (ref) => {
  if (typeof ref === 'string' || 'ref' in ref) return ref;
  if ('list' in ref) {
    const out = { ...ref, list: withKeyDefaults(ref.list) };
    const item = typeof ref.list === 'string' ? schemas[ref.list] : undefined;
    const defaults = Object.fromEntries((ref.keys ?? []).flatMap((key) => (item?.properties?.[key]?.default !== undefined ? [[key, item.properties[key].default]] : [])));
    if (Object.keys(defaults).length > 0) out.keyDefaults = defaults;
    return out;
  }
  const out = { ...ref };
  if (ref.values !== undefined) out.values = withKeyDefaults(ref.values);
  if (ref.fields) out.fields = Object.fromEntries(Object.entries(ref.fields).map(([k, v]) => [k, withKeyDefaults(v)]));
  return out;
};
for (const name of Object.keys(converted)) converted[name] = withKeyDefaults(converted[name]);
const table = {};
for (const name of Object.keys(converted).sort()) {
  if (keywords.has(converted[name]) && !Object.values(kinds).includes(name)) continue;
  table[name] = inline(converted[name]);
}

// The fields whose Go type the decoder parses and writes in a form of its own (a timestamp in
// UTC, a quantity in canonical units), by the named type holding them: the table above writes
// these types inline, as the scalars they are to apply.
const FORMAT_OF = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'micro-time',
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'quantity',
};
const refName = (property) => (property?.$ref ?? property?.allOf?.[0]?.$ref)?.replace('#/components/schemas/', '');
const formats = {};
for (const name of Object.keys(converted).sort()) {
  const fields = {};
  for (const [field, property] of Object.entries(schemas[name].properties ?? {})) {
    const format = FORMAT_OF[refName(property) ?? refName(property.additionalProperties) ?? refName(property.items)];
    if (format) fields[field] = format;
  }
  if (Object.keys(fields).length > 0) formats[name] = fields;
}

const lines = [
  `// Generated by hack/memory-types/update.mjs from hack/openapi/kubernetes-openapi.json (Kubernetes ${kubernetesVersion}); do not edit.`,
  "import type { TypeTable } from './schema.js';",
  '',
  '/** The named type of each built-in kind, by `apiVersion/kind` (`v1/Pod`, `apps/v1/Deployment`). */',
  'export const BUILTIN_KINDS: Readonly<Record<string, string>> = {',
  ...Object.keys(kinds)
    .sort()
    .map((key) => `  ${JSON.stringify(key)}: ${JSON.stringify(kinds[key])},`),
  '};',
  '',
  '/** The types built-in kinds refer to, by OpenAPI definition name. */',
  'export const BUILTIN_TYPES: TypeTable = {',
  ...Object.keys(table).map((name) => `  ${JSON.stringify(name)}: ${JSON.stringify(table[name])},`),
  '};',
  '',
  '/** Fields holding a Time, MicroTime or Quantity (or a map or list of them), by the named type that has them. */',
  "export const BUILTIN_FORMATS: Readonly<Record<string, Readonly<Record<string, 'time' | 'micro-time' | 'quantity'>>>> = {",
  ...Object.keys(formats).map((name) => `  ${JSON.stringify(name)}: ${JSON.stringify(formats[name])},`),
  '};',
  '',
];
const summary = `${Object.keys(kinds).length} kinds, ${Object.keys(table).length} types, ${Object.keys(formats).length} with formats`;
writeOrCheck(output, lines.join('\n'), summary, 'hack/memory-types/update.mjs');

function references(ref) {
  if (typeof ref === 'string') return keywords.has(ref) ? [] : [ref];
  if ('ref' in ref) return [ref.ref];
  if ('list' in ref) return references(ref.list);
  return [...Object.values(ref.fields ?? {}).flatMap(references), ...(ref.values ? references(ref.values) : [])];
}
