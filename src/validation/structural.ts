/**
 * The API server's structural-schema rules for CRD schemas (apiextensions-apiserver's
 * structural validation and CRD schema validation), checked before anything is written so
 * that `opgen manifests` never emits a CRD the API server would reject.
 *
 * @module
 */
import { isShared } from '../schema/shared.js';
import type { JSONSchemaProps } from '../schema/types.js';
import { checkListAndMapTypes } from './list-types.js';
import { checkJunctors } from './nested.js';
import { itemPath, propertyPath, type SchemaProblem } from './path.js';
import { compilePattern } from './pattern.js';
import { schemaKeywords } from './shapes.js';

export { checkDefaults } from './defaults.js';
export type { SchemaProblem } from './path.js';

type Level = 'root' | 'item' | 'field';

const schemaTypes = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

/**
 * Checks a CRD version's `openAPIV3Schema` against the structural-schema rules:
 * every node has a type (unless int-or-string or preserve-unknown-fields); the root is an
 * object; arrays have items; no `$ref`, `definitions` or other keywords CRDs do not know;
 * `additionalProperties` never beside `properties`, never at the root;
 * no type, description, default, nullable, additionalProperties or `x-kubernetes-*`
 * inside `allOf`/`anyOf`/`oneOf`/`not` (except int-or-string's two shapes), and nothing
 * there that the structural part does not also specify (the API server checks this at the
 * root only, opgen everywhere); `metadata` at the root restricts
 * only `name` and `generateName`; embedded resources are objects; list and map types are
 * consistent (list-map keys are scalar, required or defaulted properties of the items);
 * patterns are valid RE2; `uniqueItems` is not used; CEL rules are not empty and have a
 * one-line message when they span several lines (their syntax is `checkCelRule`'s job).
 *
 * @returns every problem found, with the data path of the node (`spec.template.containers[*].ports`).
 */
export function checkStructural(schema: JSONSchemaProps): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  checkNode(schema, 'root', '', problems);
  return problems;
}

/**
 * Shared (frozen) built-in subtrees found without problems. Below the root, whether a node
 * has problems depends on the node alone (its level and path only shape the messages), and
 * a frozen node cannot change, so a pod template in every kind is checked once.
 */
const clean = new WeakSet<JSONSchemaProps>();

function checkNode(node: JSONSchemaProps, level: Level, path: string, problems: SchemaProblem[]): void {
  const memo = level !== 'root' && isShared(node);
  if (memo && clean.has(node)) return;
  const before = problems.length;
  checkOwn(node, level, path, problems);
  if (memo && problems.length === before) clean.add(node);
}

function checkOwn(node: JSONSchemaProps, level: Level, path: string, problems: SchemaProblem[]): void {
  const report = (message: string, at = path) => problems.push({ path: at, message });
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const preserve = node['x-kubernetes-preserve-unknown-fields'];
  const embedded = node['x-kubernetes-embedded-resource'] === true;

  for (const keyword of Object.keys(node)) {
    if (!schemaKeywords.has(keyword)) {
      report(`${keyword} is not allowed in a CRD schema${keyword === '$ref' ? ' (inline the referenced schema)' : ''}`);
    }
  }
  if (node.type !== undefined && !schemaTypes.has(node.type)) report(`type ${JSON.stringify(node.type)} is not a schema type`);
  if (preserve === false) report('x-kubernetes-preserve-unknown-fields must be true or absent');

  if (embedded && node.type !== 'object') report('x-kubernetes-embedded-resource requires type: object');
  else if (node.type === undefined && !intOrString && !preserve) {
    report(
      level === 'root'
        ? 'the root must have a type'
        : level === 'item'
          ? 'array items must have a type (or x-kubernetes-preserve-unknown-fields)'
          : 'must have a type (or x-kubernetes-preserve-unknown-fields)',
    );
  }
  if (level === 'root' && node.type !== undefined && node.type !== 'object') report(`the root must have type object, not ${node.type}`);
  // An int-or-string with a type is accepted by the API server (VolumeSnapshot's restoreSize is
  // one, test/fixtures/corpus): refusing it would refuse CRDs users install every day.
  if (intOrString && preserve) report('x-kubernetes-int-or-string and x-kubernetes-preserve-unknown-fields exclude each other');
  if (intOrString && embedded) report('x-kubernetes-int-or-string and x-kubernetes-embedded-resource exclude each other');
  if (embedded && node.additionalProperties !== undefined) report('an embedded resource must not have additionalProperties');
  if (embedded && !preserve && Object.keys(node.properties ?? {}).length === 0) {
    report('an embedded resource needs properties or x-kubernetes-preserve-unknown-fields');
  }

  if (node.type === 'array' && !node.items) report('an array must specify items');
  if (node.additionalProperties !== undefined) {
    if (level === 'root') report('additionalProperties is not allowed at the root');
    if (typeof node.additionalProperties === 'object' && node.properties !== undefined) {
      report('properties and additionalProperties exclude each other');
    }
  }
  if (node.uniqueItems) report('uniqueItems is not allowed (its cost is quadratic); use x-kubernetes-list-type: set');
  if (node.pattern !== undefined) {
    const compiled = compilePattern(node.pattern);
    if ('invalid' in compiled) report(`pattern is not a valid regular expression: ${compiled.invalid}`);
  }

  node['x-kubernetes-validations']?.forEach((validation, i) => {
    const rule = validation.rule.trim();
    const label = `x-kubernetes-validations[${i}]`;
    if (rule === '') report(`${label}: the rule is empty`);
    if (validation.message !== undefined && validation.message.trim() === '') report(`${label}: the message must not be blank`);
    if (/[\n\r]/.test(validation.message?.trim() ?? '')) report(`${label}: the message must be one line`);
    if (/[\n\r]/.test(rule) && !validation.message?.trim()) report(`${label}: a rule of several lines needs a message`);
  });
  if (level === 'root' || embedded) checkTypeAndObjectMeta(node, level, path, report);
  problems.push(...checkListAndMapTypes(node, path), ...checkJunctors(node, path));

  if (node.items) checkNode(node.items, 'item', itemPath(path), problems);
  for (const [name, property] of Object.entries(node.properties ?? {})) checkNode(property, 'field', propertyPath(path, name), problems);
  if (typeof node.additionalProperties === 'object') checkNode(node.additionalProperties, 'field', itemPath(path), problems);
}

/** `apiVersion`, `kind` and `metadata` of a resource: at the root, and in embedded resources. */
function checkTypeAndObjectMeta(node: JSONSchemaProps, level: Level, path: string, report: (message: string, at?: string) => void): void {
  for (const name of ['apiVersion', 'kind']) {
    const property = node.properties?.[name];
    if (property && property.type !== 'string') report('must have type string', propertyPath(path, name));
  }
  const metadata = node.properties?.metadata;
  if (!metadata) return;
  const at = propertyPath(path, 'metadata');
  if (metadata.type !== 'object') report('must have type object', at);
  if (level !== 'root') return;
  // The API server owns ObjectMeta's schema: a CRD may only narrow name and generateName.
  const names = Object.keys(metadata.properties ?? {});
  const onlyNames = names.every((name) => name === 'name' || name === 'generateName');
  const others = Object.keys(metadata).filter((keyword) => keyword !== 'type' && keyword !== 'default' && !(keyword === 'properties' && onlyNames));
  if (!onlyNames || others.length > 0) {
    const what = onlyNames ? others.join(', ') : names.filter((n) => n !== 'name' && n !== 'generateName').join(', ');
    report(`may only restrict name and generateName at the root, not ${what}`, at);
  }
}
