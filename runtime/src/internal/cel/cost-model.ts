import type { CelSchema } from './schema.js';
import { celName } from './schema-types.js';

/**
 * The size model the API server's CEL cost estimate reads (apiserver's `DeclType`): for each
 * schema node, the largest size a value can have and the smallest it serializes to. A size
 * the schema does not bound (no `maxItems`, `maxProperties`, `maxLength`) is estimated from
 * the largest request the API server accepts, which is what makes such rules expensive.
 *
 * @module
 */

/** kube-apiserver's largest request body: 3 MiB. Unbounded sizes are estimated from it. */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

/** One schema node as the cost estimate sees it. */
export interface SizeNode {
  schema: CelSchema;
  /** Data path of the node (`spec.tags[*]`), for naming the bound to add. */
  path: string;
  /** Largest `size()`: items, properties or characters; 0 for scalars and objects. */
  maxElements: number;
  /** Which bound would lower maxElements, when the schema does not set it. */
  unbounded?: 'maxItems' | 'maxProperties' | 'maxLength';
  /** Smallest JSON serialization in bytes. */
  minSize: number;
  /** An object's field by CEL name, modelled when first asked for. */
  field?(name: string): SizeNode | undefined;
  /** List items or map values. */
  elem?: SizeNode;
  /** Map keys. */
  key?: SizeNode;
}

/**
 * The size model of a schema node, as apiserver's `SchemaDeclType` builds it; `isRoot` for the
 * root of the resource or an embedded resource (which gain `apiVersion`, `kind` and
 * `metadata.name`/`generateName`). Undefined where CEL sees no value (a list of unknowns).
 */
export function sizeModel(node: CelSchema, path: string, isRoot: boolean, index?: Map<CelSchema, SizeNode>): SizeNode | undefined {
  const model = declare(node, path, isRoot, index);
  if (model) index?.set(node, model);
  return model;
}

function declare(node: CelSchema, path: string, isRoot: boolean, index: Map<CelSchema, SizeNode> | undefined): SizeNode | undefined {
  const scalar = (minSize: number, maxElements = 0, unbounded?: SizeNode['unbounded']): SizeNode => ({ schema: node, path, maxElements, minSize, ...(unbounded ? { unbounded } : {}) });
  if (node['x-kubernetes-int-or-string']) return node.maxLength !== undefined ? scalar(1, Math.max(0, node.maxLength) * 4) : scalar(1, maxRequestSizeBytes - 2, 'maxLength');
  switch (node.type) {
    case 'array': {
      if (!node.items) return undefined;
      const elem = sizeModel(node.items, `${path}[*]`, Boolean(node.items['x-kubernetes-embedded-resource']), index);
      if (!elem) return undefined;
      const bounded = node.maxItems !== undefined;
      return { schema: node, path, elem, minSize: 2, maxElements: bounded ? Math.max(0, node.maxItems!) : Math.floor((maxRequestSizeBytes - 2) / (elem.minSize + 1)), ...(bounded ? {} : { unbounded: 'maxItems' as const }) };
    }
    case 'object': {
      if (typeof node.additionalProperties === 'object') {
        const elem = sizeModel(node.additionalProperties, `${path}[*]`, Boolean(node.additionalProperties['x-kubernetes-embedded-resource']), index);
        if (!elem) return undefined;
        const bounded = node.maxProperties !== undefined;
        const key: SizeNode = { schema: { type: 'string' }, path: `${path}[*]`, maxElements: 0, minSize: 2 };
        return { schema: node, path, elem, key, minSize: 2, maxElements: bounded ? Math.max(0, node.maxProperties!) : Math.floor((maxRequestSizeBytes - 2) / (elem.minSize + 6)), ...(bounded ? {} : { unbounded: 'maxProperties' as const }) };
      }
      const properties: Record<string, CelSchema> = { ...node.properties };
      if (isRoot) {
        // The API server always declares these at a resource's root, with no bound.
        properties.apiVersion = { type: 'string' };
        properties.kind = { type: 'string' };
        properties.metadata = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
      }
      // Fields are modelled when a rule reaches them: most of a large schema never is.
      const models = new Map<string, SizeNode | undefined>();
      const model = (name: string): SizeNode | undefined => {
        if (!models.has(name)) {
          const child = properties[name]!;
          models.set(name, sizeModel(child, path ? `${path}.${name}` : name, Boolean(child['x-kubernetes-embedded-resource']), index));
        }
        return models.get(name);
      };
      // The smallest serialization holds the required fields that have no default.
      let minSize = 2;
      for (const name of new Set(node.required ?? [])) {
        const child = properties[name];
        const required = child && child.default === undefined ? model(name) : undefined;
        if (required) minSize += name.length + required.minSize + 4;
      }
      let byCelName: Map<string, string> | undefined;
      const field = (cel: string): SizeNode | undefined => {
        byCelName ??= new Map(Object.keys(properties).flatMap((name) => (celName(name) === undefined ? [] : [[celName(name)!, name] as const])));
        const name = byCelName.get(cel);
        return name === undefined ? undefined : model(name);
      };
      return { schema: node, path, field, minSize, maxElements: 0 };
    }
    case 'string':
      switch (node.format) {
        case 'byte':
          return node.maxLength !== undefined ? scalar(2, Math.max(0, node.maxLength)) : scalar(2, maxRequestSizeBytes - 2, 'maxLength');
        case 'duration':
          return scalar(3, 32);
        case 'date':
          return scalar(12, 12);
        case 'date-time':
          return scalar(21, 32);
      }
      if (node.maxLength !== undefined) return scalar(2, Math.max(0, node.maxLength) * 4);
      if (node.enum?.length) return scalar(2, Math.max(0, ...node.enum.map((v) => (typeof v === 'string' ? v.length : 0))));
      return scalar(2, maxRequestSizeBytes - 2, 'maxLength');
    case 'boolean':
      return scalar(4);
    case 'number':
    case 'integer':
      return scalar(1);
  }
  return undefined;
}

/**
 * How many times a rule on a node whose ancestors do not all bound their lists and maps may
 * run, at worst: as many of its smallest serialization as fit in one request.
 */
export function unboundedCardinality(node: SizeNode): number {
  return Math.floor(maxRequestSizeBytes / (node.minSize + 1));
}
