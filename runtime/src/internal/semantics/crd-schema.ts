/**
 * What apiextensions-apiserver refuses in one version's `openAPIV3Schema`, found once for the
 * memory cluster's CRD admission ({@link admitCrd}) and for `opgen manifests`, `create api`,
 * `import crd` and bundles (which word each finding as a one-line `file:line` error).
 * Each rule lives in one file: structural invariants (schema-structure.ts), junctors and
 * completeness (schema-junctors.ts), keywords (schema-keywords.ts), list and map types
 * (schema-list-types.ts), validation-rule shapes (schema-rules.ts), defaults
 * (schema-defaults.ts). CEL parsing, types and cost are cel-admission.ts'.
 *
 * @module
 */
import { errorBody } from './messages.js';
import { completenessFindings, junctorFindings } from './schema-junctors.js';
import { keywordFindings, unsupportedKeywords } from './schema-keywords.js';
import { listTypeFindings } from './schema-list-types.js';
import { additionalPlace, clausePlace, finding, itemsPlace, propertyPlace, ROOT, type Place, type SchemaFinding } from './schema-place.js';
import { ruleFindings } from './schema-rules.js';
import { structureFindings, type Level } from './schema-structure.js';
import type { SchemaNode } from './types.js';

const META_FIELDS = ['apiVersion', 'kind', 'metadata'];

/**
 * Every structural refusal of a CRD schema, in the API server's order: the structural
 * invariants sorted as it sorts them, then the checks of each node. `rootPath`
 * (`spec.validation.openAPIV3Schema`) only prefixes the paths completeness quotes in its details.
 *
 * @example
 * structuralFindings({ type: 'object', properties: { spec: { type: 'array' } } });
 * // [{ path: 'spec', keyword: 'items', error: { type: 'FieldValueRequired', field: 'properties[spec].items', detail: 'must be specified' } }]
 */
export function structuralFindings(root: SchemaNode, rootPath = ''): SchemaFinding[] {
  const structural: SchemaFinding[] = [];
  // A schema with a keyword CRDs do not support cannot be read as structural: the API
  // server then reports that keyword alone (a `$ref` node has no type, and that is not said).
  if (!hasUnsupported(root)) {
    invariants(root, ROOT, 'root', structural);
    structural.push(...completenessFindings(root, rootPath));
    structural.sort((a, b) => compare(text(a), text(b)));
  }
  const checks: SchemaFinding[] = [];
  nodeChecks(root, ROOT, { root: true, insideMeta: false }, checks);
  return [...structural, ...checks];
}

/** Frozen (shared) subtrees without unsupported keywords. */
const supported = new WeakSet<SchemaNode>();

function hasUnsupported(node: SchemaNode): boolean {
  if (supported.has(node)) return false;
  if (Object.keys(node).some((keyword) => unsupportedKeywords.has(keyword))) return true;
  const children = [node.items, node.not, ...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? []), ...Object.values(node.properties ?? {})];
  if (typeof node.additionalProperties === 'object') children.push(node.additionalProperties);
  const found = children.some((child) => child !== undefined && typeof child === 'object' && !Array.isArray(child) && hasUnsupported(child));
  if (!found && Object.isFrozen(node)) supported.add(node);
  return found;
}

/** A finding as `field.Error` prints it, relative to the schema root. */
function text(found: SchemaFinding): string {
  return `${found.error.field}: ${errorBody(found.error)}`;
}

/** Go's string order (by UTF-16 units is the same for the ASCII of field paths). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Frozen (shared) subtrees found clean: below the root, whether a structural node has
 * findings depends on the node alone, and a frozen node cannot change, so a pod template
 * shared by every kind of a project is checked once.
 */
const cleanInvariants = new WeakSet<SchemaNode>();

function invariants(node: SchemaNode, place: Place, level: Level, found: SchemaFinding[]): void {
  const memo = level !== 'root' && Object.isFrozen(node);
  if (memo && cleanInvariants.has(node)) return;
  const before = found.length;
  found.push(...structureFindings(node, place, level), ...junctorFindings(node, place));
  if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) invariants(node.items, itemsPlace(place), 'item', found);
  for (const [name, property] of Object.entries(node.properties ?? {})) invariants(property, propertyPlace(place, name), 'field', found);
  if (typeof node.additionalProperties === 'object') invariants(node.additionalProperties, additionalPlace(place), 'field', found);
  if (memo && found.length === before) cleanInvariants.add(node);
}

interface Context {
  root: boolean;
  /** Under a resource's apiVersion, kind or metadata, whose schema the API server owns. */
  insideMeta: boolean;
  /** Why a default is refused here (`in top-level metadata`), when it is. */
  noDefaults?: string;
}

const cleanChecks = new WeakSet<SchemaNode>();

/** The checks of every node, clauses included (as the API server's schema walk does). */
function nodeChecks(node: SchemaNode, place: Place, context: Context, found: SchemaFinding[]): void {
  const memo = !context.root && !context.insideMeta && context.noDefaults === undefined && Object.isFrozen(node);
  if (memo && cleanChecks.has(node)) return;
  const before = found.length;
  if (context.noDefaults !== undefined && node.default !== undefined) {
    found.push(finding(place, 'default', { type: 'FieldValueForbidden', detail: `must not be set ${context.noDefaults}` }));
  }
  if (context.insideMeta && node['x-kubernetes-embedded-resource'] === true) {
    found.push(finding(place, 'x-kubernetes-embedded-resource', { type: 'FieldValueForbidden', detail: 'must not be used inside of resource meta' }));
  }
  found.push(...keywordFindings(node, place));
  const child = { ...context, root: false };
  if (typeof node.additionalProperties === 'object') {
    // Pruning a default under a map of object metadata would be ambiguous.
    const noDefaults = context.insideMeta ? 'inside additionalProperties applying to object metadata' : context.noDefaults;
    nodeChecks(node.additionalProperties, additionalPlace(place), { ...child, noDefaults }, found);
  }
  const resource = context.root || node['x-kubernetes-embedded-resource'] === true;
  for (const [name, property] of Object.entries(node.properties ?? {})) {
    const meta = resource && META_FIELDS.includes(name);
    const noDefaults = meta && context.root ? `in top-level ${name}` : context.noDefaults;
    nodeChecks(property, propertyPlace(place, name), { root: false, insideMeta: context.insideMeta || meta, noDefaults }, found);
  }
  if (node.not) nodeChecks(node.not, clausePlace(place, 'not'), child, found);
  node.allOf?.forEach((clause, i) => nodeChecks(clause, clausePlace(place, `allOf[${i}]`), child, found));
  node.oneOf?.forEach((clause, i) => nodeChecks(clause, clausePlace(place, `oneOf[${i}]`), child, found));
  node.anyOf?.forEach((clause, i) => nodeChecks(clause, clausePlace(place, `anyOf[${i}]`), child, found));
  if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) nodeChecks(node.items, itemsPlace(place), child, found);
  found.push(...listTypeFindings(node, place), ...ruleFindings(node, place));
  if (memo && found.length === before) cleanChecks.add(node);
}
