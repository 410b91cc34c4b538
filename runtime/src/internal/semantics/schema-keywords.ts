/**
 * The keywords apiextensions-apiserver refuses on any schema node, in the structural part and
 * inside `allOf`/`anyOf`/`oneOf`/`not` alike: JSON-Schema keywords CRDs do not support, types
 * that are not OpenAPI's, `uniqueItems`, `additionalProperties` beside `properties`,
 * `x-kubernetes-preserve-unknown-fields: false`, and patterns that are not RE2.
 *
 * @module
 */
import { compileRe2 } from '../cel/index.js';
import { goQuote } from './paths.js';
import { finding, type Place, type SchemaFinding } from './schema-place.js';
import type { SchemaNode } from './types.js';

const UNSUPPORTED = ['id', 'additionalItems', 'patternProperties', 'definitions', 'dependencies', '$ref'] as const;
const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

/**
 * The JSON-Schema keywords a CRD schema may carry but the API server refuses, each with
 * `<keyword> is not supported`.
 */
export const unsupportedKeywords: ReadonlySet<string> = new Set(UNSUPPORTED);

/**
 * The keyword findings of one node (its children are the walker's).
 *
 * @example
 * keywordFindings({ type: 'array', items: { type: 'string' }, uniqueItems: true }, ROOT); // uniqueItems: Forbidden
 */
export function keywordFindings(node: SchemaNode, place: Place): SchemaFinding[] {
  const found: SchemaFinding[] = [];
  const type = node.type as string | undefined;
  if (type === 'null') found.push(finding(place, 'type', { type: 'FieldValueForbidden', detail: 'type cannot be set to null, use nullable as an alternative' }));
  else if (type !== undefined && type !== '' && !TYPES.includes(type)) {
    found.push(finding(place, 'type', { type: 'FieldValueNotSupported', value: goQuote(type), detail: `supported values: ${TYPES.map(goQuote).join(', ')}` }));
  }
  for (const keyword of UNSUPPORTED) {
    if (node[keyword] !== undefined) found.push(finding(place, keyword, { type: 'FieldValueForbidden', detail: `${keyword} is not supported` }));
  }
  if (Array.isArray(node.items)) found.push(finding(place, 'items', { type: 'FieldValueForbidden', detail: 'items must be a schema object and not an array' }));
  if (node.uniqueItems === true) {
    found.push(finding(place, 'uniqueItems', { type: 'FieldValueForbidden', detail: 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic' }));
  }
  // `additionalProperties: true` beside properties says nothing new; false or a schema contradicts them.
  if (node.additionalProperties !== undefined && node.additionalProperties !== true && Object.keys(node.properties ?? {}).length > 0) {
    found.push(finding(place, 'additionalProperties', { type: 'FieldValueForbidden', detail: 'additionalProperties and properties are mutual exclusive' }));
  }
  if (node['x-kubernetes-preserve-unknown-fields'] === false) {
    found.push(finding(place, 'x-kubernetes-preserve-unknown-fields', { type: 'FieldValueInvalid', value: 'false', detail: 'must be true or undefined' }));
  }
  if (typeof node.pattern === 'string' && node.pattern !== '') {
    const re = compileRe2(node.pattern);
    if ('error' in re) found.push(finding(place, 'pattern', { type: 'FieldValueInvalid', value: goQuote(node.pattern), detail: `must be a valid regular expression, but isn't: ${re.error}` }));
  }
  return found;
}
