/**
 * The schema of a Kind: its root interface, with `metadata` left to the API server and
 * `apiVersion`/`kind` always present.
 *
 * @module
 */
import type { InterfaceDeclaration, ts as Ts } from 'ts-morph';
import type { Location } from '../errors.js';
import type { CsvFieldMarker, CsvMarker } from '../markers/olm.js';
import type { Marker } from '../markers/parse.js';
import { ts } from '../ts-morph.js';
import { applySchemaMarkers } from './apply.js';
import { type WalkContext, failAt, locationAt } from './context.js';
import { resolveName } from './resolve.js';
import { isShared } from './shared.js';
import type { JSONSchemaProps } from './types.js';
import { commentOf, csvMarkers, extendsOf, interfaceSchema, isRootDeclaration } from './walk.js';

/** One Kind in one version folder, walked. */
export interface KindSchema {
  kind: string;
  decl: InterfaceDeclaration;
  schema: JSONSchemaProps;
  /** Every marker on the Kind, CRD-level ones included. */
  markers: Marker[];
  /** operator-sdk CSV markers on the Kind and on its fields, kept for an OLM bundle. */
  csv: { kind: CsvMarker[]; fields: CsvFieldMarker[] };
  location: Location;
}

/**
 * Kubernetes' own descriptions of TypeMeta's fields, line breaks included, as controller-gen
 * writes them into every CRD: a project moving from Go sees no diff.
 */
export const typeMetaDescriptions = {
  apiVersion: [
    'APIVersion defines the versioned schema of this representation of an object.',
    'Servers should convert recognized schemas to the latest internal value, and',
    'may reject unrecognized values.',
    'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  ].join('\n'),
  kind: [
    'Kind is a string value representing the REST resource this object represents.',
    'Servers may infer this from the endpoint the client submits requests to.',
    'Cannot be updated.',
    'In CamelCase.',
    'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  ].join('\n'),
};

/** True for an interface marked `+kubebuilder:object:root` (a Kind or a list). */
export function isRootInterface(decl: InterfaceDeclaration): boolean {
  return isRootDeclaration(decl);
}

/** True for a root interface that is a list of a Kind (`FooList` with `items`, or `extends List<Foo>`). */
export function isListInterface(decl: InterfaceDeclaration): boolean {
  if (!decl.getName().endsWith('List')) return false;
  const sourceFile = decl.getSourceFile().compilerNode;
  return Boolean(propertyNamed(decl, 'items')) || extendsOf(decl.compilerNode).some((e) => e.expression.getText(sourceFile).split('.').pop() === 'List');
}

/** The interface's property written as `name` (an identifier, as ts-morph's getProperty matches it). */
function propertyNamed(decl: InterfaceDeclaration, name: string): Ts.PropertySignature | undefined {
  const sourceFile = decl.getSourceFile().compilerNode;
  return decl.compilerNode.members.find((m): m is Ts.PropertySignature => ts.isPropertySignature(m) && m.name.getText(sourceFile) === name);
}

/** Walks a Kind's root interface. Returns undefined (with errors recorded) when it cannot be read. */
export function walkKind(ctx: WalkContext, decl: InterfaceDeclaration): KindSchema | undefined {
  const file = decl.getSourceFile();
  const comment = commentOf(ctx, file, decl.compilerNode, 'type', { kind: true });
  const name = decl.getName();
  if (decl.compilerNode.typeParameters?.length) {
    failAt(ctx, file, decl.compilerNode, `Kind ${name} cannot be generic`, 'declare a generic interface and extend it: interface Foo extends Base<Spec>');
    return undefined;
  }
  const metadata = propertyNamed(decl, 'metadata');
  if (!metadata && !extendsOf(decl.compilerNode).length) {
    failAt(ctx, file, decl.compilerNode, `Kind ${name} has no metadata property`, 'add metadata?: ObjectMeta (from @opgen/runtime/api)');
    return undefined;
  }
  if (metadata) {
    const typeNode = metadata.type;
    const ok =
      typeNode &&
      ts.isTypeReferenceNode(typeNode) &&
      (() => {
        const r = resolveName(file, typeNode.typeName.getText(file.compilerNode), ctx.files);
        return r.kind === 'runtime' && r.name === 'ObjectMeta';
      })();
    if (!ok) {
      failAt(ctx, file, metadata, `metadata of ${name} must be ObjectMeta`, "import { ObjectMeta } from '@opgen/runtime/api'");
      return undefined;
    }
  }
  const key = `${file.getFilePath()}#${name}`;
  ctx.stack.push({ key, name, path: '' });
  const schema = interfaceSchema(ctx, decl, { file, params: new Map() }, true);
  ctx.stack.pop();
  if (ctx.broken.has(schema)) return undefined;
  if (!schema.properties?.metadata) {
    failAt(ctx, file, decl.compilerNode, `Kind ${name} has no metadata property`, 'add metadata?: ObjectMeta (from @opgen/runtime/api)');
    return undefined;
  }
  schema.properties.metadata = { type: 'object' };
  for (const field of ['apiVersion', 'kind'] as const) {
    // Always the standard text: in Go these fields come from TypeMeta, whose docs no API file changes.
    let prop = (schema.properties[field] ??= { type: 'string' });
    // A Kind that extends a built-in type (V1Pod) inherits its shared, frozen field schemas.
    if (isShared(prop)) prop = schema.properties[field] = { ...prop };
    prop.description = typeMetaDescriptions[field];
  }
  applySchemaMarkers(schema, comment.markers, ctx);
  if (comment.description) schema.description = comment.description;
  const csv = { kind: csvMarkers(ctx, comment.markers, 'type'), fields: ctx.csv ? fieldCsvMarkers(ctx.csv, schema, '') : [] };
  return { kind: name, decl, schema, markers: comment.markers, csv, location: locationAt(ctx, file, decl.compilerNode.name) };
}

/** The CSV markers of the fields under `schema`, each with its data path (`spec.size`, `spec.nodes[]`). */
function fieldCsvMarkers(csv: WeakMap<JSONSchemaProps, CsvMarker[]>, schema: JSONSchemaProps, path: string): CsvFieldMarker[] {
  const here = (csv.get(schema) ?? []).map((marker) => ({ ...marker, path }));
  const below = [
    ...Object.entries(schema.properties ?? {}).map(([name, child]) => fieldCsvMarkers(csv, child, path ? `${path}.${name}` : name)),
    ...(schema.items ? [fieldCsvMarkers(csv, schema.items, `${path}[]`)] : []),
  ];
  return [...here, ...below.flat()];
}
