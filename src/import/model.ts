/**
 * One served version of a CRD as TypeScript declarations: the Kind, an interface for every
 * nested object (named as kopium names it), a type alias for every list item or map value
 * that carries its own description or validation, and the markers that give the schema
 * back through `opgen manifests`. What no TypeScript type or marker expresses is reported
 * as a problem at its JSON path in the CRD, never dropped silently.
 *
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import { readComment } from '../markers/block.js';
import { quantityPattern } from '../schema/builtins/known.js';
import { typeMetaDescriptions } from '../schema/kind.js';
import type { JSONSchemaProps } from '../schema/types.js';
import { keywordMarkers, markedKeywords } from './markers.js';
import { NameTable, pascalCase } from './names.js';

export interface Field {
  name: string;
  optional: boolean;
  type: string;
  doc: string[];
  markers: string[];
}

export interface InterfaceDecl {
  kind: 'interface';
  name: string;
  doc: string[];
  markers: string[];
  fields: Field[];
}

export interface AliasDecl {
  kind: 'alias';
  name: string;
  doc: string[];
  markers: string[];
  type: string;
}

export type Decl = InterfaceDecl | AliasDecl;

/** Something of the CRD the generated types cannot give back, at its JSON path in the CRD. */
export interface Problem {
  path: string;
  message: string;
}

/** What a version's declarations need from `@opgen/runtime/api`. */
export const runtimeTypes = ['IntOrString', 'Quantity', 'Time', 'Duration', 'Bytes', 'int32', 'int64', 'integer', 'JSONValue', 'RawExtension'] as const;

/** The types of one schema: the Kind's interface is `decls[0]`. */
export interface VersionTypes {
  decls: Decl[];
  /** Runtime types the declarations use, sorted. */
  uses: string[];
  problems: Problem[];
}

/** Keywords the TypeScript type itself gives back. */
const typed = new Set<string>(['type', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'additionalProperties']);

/** The types a keyword's marker accepts (apply.ts refuses it on others; the API server ignores it there). */
const appliesTo: Partial<Record<keyof JSONSchemaProps, readonly string[]>> = {
  maximum: ['integer', 'number'],
  minimum: ['integer', 'number'],
  exclusiveMaximum: ['integer', 'number'],
  exclusiveMinimum: ['integer', 'number'],
  multipleOf: ['integer', 'number'],
  maxLength: ['string'],
  minLength: ['string'],
  pattern: ['string'],
  maxItems: ['array'],
  minItems: ['array'],
  uniqueItems: ['array'],
  maxProperties: ['object'],
  minProperties: ['object'],
  'x-kubernetes-list-type': ['array'],
  'x-kubernetes-list-map-keys': ['array'],
  'x-kubernetes-map-type': ['object'],
};

interface Shape {
  type: string;
  /** Keywords of the node left for markers. */
  keys: (keyof JSONSchemaProps)[];
  doc: string[];
  decl?: InterfaceDecl;
}

/**
 * The declarations of `schema` (a version's `openAPIV3Schema`) for Kind `kind`; `path` is
 * the schema's JSON path in the CRD, `kindMarkers` the CRD-level markers of the Kind.
 */
export function versionTypes(kind: string, schema: JSONSchemaProps, path: string, kindMarkers: string[]): VersionTypes {
  const builder = new Builder(kind);
  builder.root(schema, path, kindMarkers);
  return { decls: builder.decls, uses: [...builder.uses].sort(), problems: builder.problems };
}

class Builder {
  readonly decls: Decl[] = [];
  readonly uses = new Set<string>();
  readonly problems: Problem[] = [];
  private readonly names: NameTable;

  constructor(private readonly kind: string) {
    this.names = new NameTable(['ObjectMeta', 'defineKind', ...runtimeTypes]);
    this.names.claim(kind);
  }

  root(schema: JSONSchemaProps, path: string, kindMarkers: string[]): void {
    this.checkKeys(schema, path);
    for (const field of ['apiVersion', 'kind'] as const) {
      const standard = { type: 'string', description: typeMetaDescriptions[field] };
      if (!isDeepStrictEqual(schema.properties?.[field], standard)) {
        this.problem(`${path}.properties.${field}`, `opgen manifests always writes ${field} as a string with Kubernetes' description of it`);
      }
    }
    const kind: InterfaceDecl = { kind: 'interface', name: this.kind, doc: this.doc(schema.description, path), markers: [], fields: [] };
    this.decls.push(kind);
    const shape = this.object(schema, this.kind, path, kind);
    kind.markers = ['+kubebuilder:object:root=true', ...kindMarkers, ...keywordMarkers(schema, shape.keys)];
  }

  private object(node: JSONSchemaProps, name: string, path: string, into?: InterfaceDecl): Shape {
    const decl = into ?? { kind: 'interface' as const, name: this.names.claim(name), doc: [], markers: [], fields: [] };
    if (!into) this.decls.push(decl);
    const required = new Set(node.required ?? []);
    for (const missing of required) if (!node.properties || !Object.hasOwn(node.properties, missing)) this.problem(`${path}.required`, `"${missing}" is required but not a property`);
    for (const [prop, child] of Object.entries(node.properties ?? {})) {
      const at = `${path}.properties.${prop}`;
      if (into && prop === 'metadata') {
        if (JSON.stringify(child) !== '{"type":"object"}') this.problem(at, 'the root metadata schema is more than type: object; ObjectMeta gives back only that');
        decl.fields.push({ name: prop, optional: !required.has(prop), type: 'ObjectMeta', doc: [], markers: [] });
        continue;
      }
      const shape = this.shape(child, `${decl.name}${pascalCase(prop)}`, at);
      decl.fields.push({ name: prop, optional: !required.has(prop), type: shape.type, doc: shape.doc, markers: keywordMarkers(child, shape.keys) });
    }
    return { type: decl.name, keys: this.markerKeys(node, [], path), doc: this.doc(node.description, path), decl };
  }

  /** The type of a node at a field; its description and markers are the field's to write. */
  private shape(node: JSONSchemaProps, name: string, path: string): Shape {
    this.checkKeys(node, path);
    const absorbed: (keyof JSONSchemaProps)[] = [];
    let type: string;
    let decl: InterfaceDecl | undefined;
    if (node['x-kubernetes-int-or-string']) {
      const anyOf = JSON.stringify(node.anyOf ?? []);
      if (anyOf !== '[{"type":"integer"},{"type":"string"}]') this.problem(`${path}.anyOf`, `int-or-string with anyOf ${anyOf}: IntOrString gives back [{type: integer}, {type: string}]`);
      if (node.type) this.problem(`${path}.type`, 'int-or-string with a type: IntOrString gives back none');
      type = node.pattern === quantityPattern ? this.use('Quantity') : this.use('IntOrString');
      if (type === 'Quantity') absorbed.push('pattern');
    } else if (node.enum) {
      type = this.literals(node, path);
    } else {
      switch (node.type) {
        case 'string':
          type = this.stringType(node.format);
          if (type === 'Time' || type === 'Bytes') absorbed.push('format');
          break;
        case 'integer':
          type = node.format === 'int32' || node.format === 'int64' ? this.use(node.format) : this.use('integer');
          if (type !== 'integer') absorbed.push('format');
          break;
        case 'number':
        case 'boolean':
          type = node.type;
          break;
        case 'array':
          type = node.items ? `${this.element(node.items, name, `${path}.items`)}[]` : `${this.use('JSONValue')}[]`;
          if (!node.items) this.problem(path, 'a list without items');
          break;
        case 'object':
          if (node.properties || !(node.additionalProperties || node['x-kubernetes-preserve-unknown-fields'])) {
            if (node.properties && node.additionalProperties) this.problem(`${path}.additionalProperties`, 'properties and additionalProperties together');
            decl = this.object(node, name, path).decl;
            type = decl!.name;
          } else if (typeof node.additionalProperties === 'object') {
            type = `Record<string, ${this.element(node.additionalProperties, name, `${path}.additionalProperties`)}>`;
          } else {
            if (node.additionalProperties === true) this.problem(`${path}.additionalProperties`, 'additionalProperties: true has no marker; RawExtension keeps unknown fields instead');
            type = this.use('RawExtension');
            absorbed.push('x-kubernetes-preserve-unknown-fields');
          }
          break;
        default:
          if (node['x-kubernetes-preserve-unknown-fields']) {
            type = this.use('JSONValue');
            absorbed.push('x-kubernetes-preserve-unknown-fields');
          } else {
            this.problem(path, 'a schema without a type');
            type = this.use('JSONValue');
          }
      }
    }
    if (node.nullable) type = `${type} | null`;
    return { type, keys: this.markerKeys(node, absorbed, path), doc: this.doc(node.description, path), decl };
  }

  /** The type of a list item or map value: a named type when it has a description or markers of its own. */
  private element(node: JSONSchemaProps, name: string, path: string): string {
    const shape = this.shape(node, name, path);
    const markers = keywordMarkers(node, shape.keys);
    if (shape.decl) {
      shape.decl.doc = shape.doc;
      shape.decl.markers = markers;
      return shape.decl.name;
    }
    if (!shape.doc.length && !markers.length) return /[|]/.test(shape.type) ? `(${shape.type})` : shape.type;
    const alias: AliasDecl = { kind: 'alias', name: this.names.claim(name), doc: shape.doc, markers, type: shape.type };
    this.decls.push(alias);
    return alias.name;
  }

  private stringType(format: string | undefined): string {
    if (format === 'date-time') return this.use('Time');
    if (format === 'byte') return this.use('Bytes');
    if (format === 'duration') return this.use('Duration');
    return 'string';
  }

  private literals(node: JSONSchemaProps, path: string): string {
    const values = node.enum!;
    const wrong = values.find((v) => (node.type === 'string' ? typeof v !== 'string' : node.type === 'integer' ? !Number.isInteger(v) : true));
    if (wrong !== undefined || !values.length) {
      this.problem(`${path}.enum`, `enum ${JSON.stringify(values)} of ${node.type ?? 'no type'}: only string and integer literals are types`);
      return node.type === 'integer' ? this.use('integer') : 'string';
    }
    return values.map((v) => (typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'` : String(v))).join(' | ');
  }

  /** The keywords of `node` left for markers: those the type does not give back and a marker may carry on a value of its type. */
  private markerKeys(node: JSONSchemaProps, absorbed: readonly (keyof JSONSchemaProps)[], path: string): (keyof JSONSchemaProps)[] {
    const keys = (Object.keys(node) as (keyof JSONSchemaProps)[]).filter((key) => markedKeywords.has(key) && !absorbed.includes(key));
    const type = node['x-kubernetes-int-or-string'] ? 'string' : node.type;
    return keys.filter((key) => {
      const wants = appliesTo[key];
      if (!wants || wants.includes(type ?? '')) return true;
      this.problem(`${path}.${key}`, `${key} on ${type ? `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}` : 'a value without a type'}: its marker applies only to ${wants.join(' or ')}`);
      return false;
    });
  }

  private checkKeys(node: JSONSchemaProps, path: string): void {
    for (const key of Object.keys(node)) {
      if (typed.has(key) || markedKeywords.has(key as keyof JSONSchemaProps)) continue;
      if ((key === 'anyOf' || key === 'x-kubernetes-int-or-string') && node['x-kubernetes-int-or-string']) continue;
      this.problem(`${path}.${key}`, `${key} has no marker`);
    }
  }

  /**
   * A description as comment lines that read back as exactly it; lines the comment reader
   * would take for markers or notes (`+foo`, `@minimum`, `TODO`, `---`) are left out and
   * reported.
   */
  private doc(description: string | undefined, path: string): string[] {
    if (!description) return [];
    const asComment = (lines: string[]) => readComment(lines.map((l) => ({ text: l.trim(), prose: l.trimEnd(), line: 1, column: 1 })), '');
    const lines = description.split('\n').filter((line) => {
      const read = asComment([line]);
      return read.markers.length === 0 && read.errors.length === 0;
    });
    if (asComment(lines).description !== description) this.problem(`${path}.description`, 'the description does not read back the same from a comment (markers, TODO or --- lines, trailing spaces)');
    return lines;
  }

  private use(name: string): string {
    this.uses.add(name);
    return name;
  }

  private problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }
}
