/**
 * TypeScript types → OpenAPI v3 schemas, read from the syntax of the API files (no type
 * checker): interfaces, aliases, enums, unions, intersections, generics, arrays, records,
 * the runtime API's special types and the client's Kubernetes models.
 *
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import type { EnumDeclaration, InterfaceDeclaration, SourceFile, ts as Ts } from 'ts-morph';
import { UserError } from '../errors.js';
import { type CommentBlock, readComment } from '../markers/block.js';
import { commentsMention, nodeCommentLines } from '../markers/comments.js';
import { type CsvMarker, csvMarkerName, readCsvMarker } from '../markers/olm.js';
import type { Marker } from '../markers/parse.js';
import type { Target } from '../markers/registry.js';
import { Node, SyntaxKind, ts } from '../ts-morph.js';
import { applySchemaMarkers, immutableParentRule } from './apply.js';
import { builtinSchema } from './builtins.js';
import { type WalkContext, copySchema, displayPath, fail, failAt, locationAt } from './context.js';
import { type Declaration, resolveName } from './resolve.js';
import { runtimeBuiltin, runtimeSchema } from './runtime.js';
import { ownChildren } from './shared.js';
import type { JSONSchemaProps } from './types.js';

// The walker reads TypeScript's own nodes, not ts-morph's wrappers: wrapping every property
// and type node of a large API (each wrapper is created and registered on first use) cost
// about a tenth of its build. Declarations stay ts-morph nodes.
type TypeNode = Ts.TypeNode;

/** A type argument bound to a type parameter, with the scope it is read in. */
interface Bound {
  node: TypeNode;
  env: Env;
}

/** Where a type node is read: its file (which holds the node) and the type parameters in scope. */
export interface Env {
  file: SourceFile;
  params: ReadonlyMap<string, Bound>;
}

/** CRD-level markers: meaningful only on a Kind. */
export const kindMarkers = new Set([
  'kubebuilder:object:root',
  'kubebuilder:resource',
  'kubebuilder:subresource:status',
  'kubebuilder:subresource:scale',
  'kubebuilder:storageversion',
  'kubebuilder:unservedversion',
  'kubebuilder:deprecatedversion',
  'kubebuilder:skipversion',
  'kubebuilder:printcolumn',
  'kubebuilder:metadata',
  'kubebuilder:selectablefield',
  'versionName',
  csvMarkerName,
]);

const requiredMarker = 'kubebuilder:validation:Required';
const optionalMarker = 'kubebuilder:validation:Optional';

/** Reads the comment of a declaration in `file` and reports markers that do not belong on a `target`. */
export function commentOf(ctx: WalkContext, file: SourceFile, node: Ts.Node, target: Target, options: { kind?: boolean } = {}): CommentBlock {
  const block = readComment(nodeCommentLines(file, node), displayPath(ctx, file));
  ctx.errors.push(...block.errors);
  block.markers = block.markers.filter((marker) => {
    if (marker.def.ignored) return false;
    if (!marker.def.targets.includes(target)) {
      const where = marker.def.targets.map((t) => (t === 'package' ? 'in groupversion_info.ts' : `on a ${t === 'field' ? 'property' : 'type'}`));
      ctx.errors.push(new UserError(`${marker.text} cannot be used on a ${target === 'field' ? 'property' : 'type'}`, marker.location, `it belongs ${where.join(' or ')}`));
      return false;
    }
    if (target === 'type' && !options.kind && kindMarkers.has(marker.canonical) && marker.canonical !== 'kubebuilder:object:root') {
      ctx.errors.push(
        new UserError(`${marker.text} only applies to a Kind`, marker.location, 'put it on the interface marked +kubebuilder:object:root=true'),
      );
      return false;
    }
    return true;
  });
  return block;
}

/** The text of a node of `env`'s file, as written. */
function textOf(env: Env, node: Ts.Node): string {
  return node.getText(env.file.compilerNode);
}

/** The schema of a type node. */
export function walkType(ctx: WalkContext, node: TypeNode, env: Env): JSONSchemaProps {
  switch (node.kind) {
    case SyntaxKind.ParenthesizedType:
      return walkType(ctx, (node as Ts.ParenthesizedTypeNode).type, env);
    case SyntaxKind.TypeReference: {
      const ref = node as Ts.TypeReferenceNode;
      return walkReference(ctx, textOf(env, ref.typeName), ref.typeArguments ?? [], node, env);
    }
    case SyntaxKind.ArrayType:
      return arrayOf(ctx, (node as Ts.ArrayTypeNode).elementType, env);
    case SyntaxKind.TypeOperator: {
      const op = node as Ts.TypeOperatorNode;
      if (op.operator === SyntaxKind.ReadonlyKeyword) return walkType(ctx, op.type, env);
      return failAt(ctx, env.file, node, `${textOf(env, node)} cannot be mapped to a schema`, 'write the type out as an interface, union or alias');
    }
    case SyntaxKind.TupleType:
      return failAt(ctx, env.file, node, `tuple ${textOf(env, node)} cannot be mapped to a schema`, 'use an array (T[]) or an interface with named fields');
    case SyntaxKind.TypeLiteral:
      return objectOf(ctx, (node as Ts.TypeLiteralNode).members, env);
    case SyntaxKind.UnionType:
      return walkUnion(ctx, node, env);
    case SyntaxKind.IntersectionType:
      return mergeObjects(
        ctx,
        env,
        (node as Ts.IntersectionTypeNode).types.map((t) => ({ node: t, schema: walkType(ctx, t, env) })),
        { type: 'object' },
      );
    case SyntaxKind.LiteralType:
      return literal(ctx, node as Ts.LiteralTypeNode, env);
    case SyntaxKind.StringKeyword:
    case SyntaxKind.TemplateLiteralType:
      return { type: 'string' };
    case SyntaxKind.NumberKeyword:
      return { type: 'number' };
    case SyntaxKind.BooleanKeyword:
      return { type: 'boolean' };
    case SyntaxKind.UnknownKeyword:
      return { 'x-kubernetes-preserve-unknown-fields': true };
    case SyntaxKind.AnyKeyword:
      return failAt(ctx, env.file, node, '`any` has no schema', 'use `unknown` or JSONValue to keep any value as it is, or a real type');
    case SyntaxKind.ObjectKeyword:
      return failAt(ctx, env.file, node, '`object` has no schema', 'use an interface, or Record<string, T> for a map');
    case SyntaxKind.BigIntKeyword:
      return failAt(ctx, env.file, node, '`bigint` cannot be sent as JSON', 'use int64, or Quantity for large amounts');
    case SyntaxKind.SymbolKeyword:
      return failAt(ctx, env.file, node, '`symbol` cannot be sent as JSON', 'use a string');
    case SyntaxKind.NeverKeyword:
    case SyntaxKind.VoidKeyword:
    case SyntaxKind.UndefinedKeyword:
    case SyntaxKind.NullKeyword:
      return failAt(ctx, env.file, node, `\`${textOf(env, node)}\` alone is not a value`, 'make the property optional (name?: T) instead');
    case SyntaxKind.FunctionType:
    case SyntaxKind.ConstructorType:
      return failAt(ctx, env.file, node, 'functions cannot be part of an API type', 'API types describe JSON data');
    default:
      return failAt(ctx, env.file, node, `${textOf(env, node)} cannot be mapped to a schema`, 'write the type out as an interface, union or alias');
  }
}

function arrayOf(ctx: WalkContext, element: TypeNode, env: Env): JSONSchemaProps {
  const frame = ctx.stack[ctx.stack.length - 1];
  const saved = frame?.path;
  if (frame) frame.path += '[]';
  const items = walkType(ctx, element, env);
  if (frame) frame.path = saved!;
  if (ctx.broken.has(items)) return items;
  return { type: 'array', items };
}

function literal(ctx: WalkContext, node: Ts.LiteralTypeNode, env: Env): JSONSchemaProps {
  const lit = node.literal;
  if (ts.isStringLiteral(lit) || ts.isNoSubstitutionTemplateLiteral(lit)) return { type: 'string', enum: [lit.text] };
  if (lit.kind === SyntaxKind.TrueKeyword) return { type: 'boolean', enum: [true] };
  if (lit.kind === SyntaxKind.FalseKeyword) return { type: 'boolean', enum: [false] };
  if (lit.kind === SyntaxKind.NullKeyword) return failAt(ctx, env.file, node, '`null` alone is not a value', 'use T | null for a nullable T');
  const value = Number(textOf(env, lit).replace(/_/g, ''));
  if (Number.isFinite(value)) return { type: Number.isInteger(value) ? 'integer' : 'number', enum: [value] };
  return failAt(ctx, env.file, node, `${textOf(env, node)} cannot be mapped to a schema`);
}

function isNullType(node: TypeNode): boolean {
  return node.kind === SyntaxKind.NullKeyword || (ts.isLiteralTypeNode(node) && node.literal.kind === SyntaxKind.NullKeyword);
}

function unionMembers(node: TypeNode): TypeNode[] {
  if (ts.isParenthesizedTypeNode(node)) return unionMembers(node.type);
  if (ts.isUnionTypeNode(node)) return node.types.flatMap(unionMembers);
  return [node];
}

/** True when a property's type admits `undefined` (`T | undefined`), which makes it optional. */
export function admitsUndefined(node: TypeNode): boolean {
  return unionMembers(node).some((m) => m.kind === SyntaxKind.UndefinedKeyword);
}

function walkUnion(ctx: WalkContext, node: TypeNode, env: Env): JSONSchemaProps {
  const members = unionMembers(node);
  const nullable = members.some(isNullType);
  const rest = members.filter((m) => !isNullType(m) && m.kind !== SyntaxKind.UndefinedKeyword);
  if (rest.length === 0) return failAt(ctx, env.file, node, `${textOf(env, node)} has no value besides null`);
  const schemas = rest.map((m) => walkType(ctx, m, env));
  const brokenOne = schemas.find((s) => ctx.broken.has(s));
  if (brokenOne) return brokenOne;
  const combined = schemas.length === 1 ? schemas[0]! : combine(ctx, node, schemas, env);
  if (nullable && !ctx.broken.has(combined)) combined.nullable = true;
  return combined;
}

function combine(ctx: WalkContext, node: TypeNode, schemas: JSONSchemaProps[], env: Env): JSONSchemaProps {
  if (schemas.every((s) => isDeepStrictEqual(s, schemas[0]))) return schemas[0]!;
  const types = new Set(schemas.map((s) => (s['x-kubernetes-int-or-string'] ? 'int-or-string' : s.type)));
  const scalar = (s: JSONSchemaProps) => !s.properties && !s.items && !s.additionalProperties && !s.anyOf;
  if (types.size === 1 && schemas.every(scalar)) {
    const type = schemas[0]!.type;
    if (type === 'boolean' && schemas.every((s) => s.enum)) {
      const values = new Set(schemas.flatMap((s) => s.enum!));
      return values.size === 2 ? { type: 'boolean' } : { type: 'boolean', enum: [...values] };
    }
    // A literal next to its whole type is the whole type ('a' | string is string).
    const open = schemas.find((s) => !s.enum);
    if (open) return { ...open };
    const values: unknown[] = [];
    for (const s of schemas) for (const v of s.enum!) if (!values.some((x) => isDeepStrictEqual(x, v))) values.push(v);
    return { type, enum: values };
  }
  if (types.size === 2 && types.has('integer') && types.has('number')) {
    return { type: 'number', ...(schemas.every((s) => s.enum) ? { enum: schemas.flatMap((s) => s.enum!) } : {}) };
  }
  const numericOrString = schemas.every((s) => (s.type === 'integer' || s.type === 'number' || s.type === 'string') && scalar(s) && !s.enum);
  if (numericOrString && types.has('string') && types.size === 2) {
    return { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
  }
  if (schemas.some((s) => s.type === 'object' || s.type === 'array' || s.properties)) {
    return failAt(
      ctx,
      env.file,
      node,
      `union ${textOf(env, node)} of object types cannot be mapped to a schema`,
      'use one interface with optional fields and +kubebuilder:validation:ExactlyOneOf',
    );
  }
  return failAt(ctx, env.file, node, `union ${textOf(env, node)} of unrelated types cannot be mapped to a schema`, 'use one type (IntOrString for number | string)');
}

/** Merges object schemas (interface `extends`, intersections) into `into`, flattened like Go's embedding. */
function mergeObjects(ctx: WalkContext, env: Env, parts: { node: Ts.Node; schema: JSONSchemaProps }[], into: JSONSchemaProps): JSONSchemaProps {
  for (const { node, schema } of parts) {
    if (ctx.broken.has(schema)) return schema;
    if (schema.type !== 'object' || schema['x-kubernetes-preserve-unknown-fields'] || schema.additionalProperties) {
      return failAt(ctx, env.file, node, `${textOf(env, node)} is not an object type with named properties`, 'only interfaces and object types can be combined');
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties') into.properties = { ...into.properties, ...schema.properties };
      else if (key === 'required') into.required = [...new Set([...(into.required ?? []), ...schema.required!])];
      else if (key === 'x-kubernetes-validations') into[key] = [...(into[key] ?? []), ...schema[key]!];
      else if (key !== 'description' && !(key in into)) (into as Record<string, unknown>)[key] = value;
    }
  }
  return into;
}

function walkReference(ctx: WalkContext, name: string, args: readonly TypeNode[], node: Ts.Node, env: Env): JSONSchemaProps {
  const bound = env.params.get(name);
  if (bound) return walkType(ctx, bound.node, bound.env);
  const resolved = resolveName(env.file, name, ctx.files);
  switch (resolved.kind) {
    case 'decl':
      return walkDeclaration(ctx, resolved.decl, args.map((a) => ({ node: a, env })), { file: env.file, node });
    case 'runtime':
      return runtimeType(ctx, resolved.name, args, node, env);
    case 'client': {
      const schema = builtinSchema(resolved.name);
      // builtinSchema's result already has its own root (the rest is shared and frozen).
      return schema ?? failAt(ctx, env.file, node, `${resolved.name} is not a Kubernetes model opgen knows`, 'use a V1… model of @kubernetes/client-node, e.g. V1PodTemplateSpec');
    }
    case 'external':
      return failAt(
        ctx,
        env.file,
        node,
        `type ${name} from '${resolved.module}' cannot be read`,
        'API types may come from src/api, @opgen/runtime/api and @kubernetes/client-node only',
      );
    case 'missing':
      return globalType(ctx, name, args, node, env);
  }
}

function runtimeType(ctx: WalkContext, name: string, args: readonly TypeNode[], node: Ts.Node, env: Env): JSONSchemaProps {
  if (name === 'List') {
    if (args.length !== 1) return failAt(ctx, env.file, node, 'List needs one type argument', 'List<MyKind>');
    const items = arrayOf(ctx, args[0]!, env);
    if (ctx.broken.has(items)) return items;
    return {
      type: 'object',
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, items },
      required: ['items'],
    };
  }
  const builtin = runtimeBuiltin(name);
  if (builtin) {
    const schema = builtinSchema(builtin);
    if (!schema) return failAt(ctx, env.file, node, `no Kubernetes schema for ${name} (${builtin})`);
    return structuredClone(schema);
  }
  const schema = runtimeSchema(name);
  if (schema) return schema;
  return failAt(ctx, env.file, node, `${name} from @opgen/runtime/api is not a data type`, 'API types describe the JSON of an object');
}

/** The error placeholder when `name` was not given `count` type arguments, else undefined. */
function wrongArgCount(ctx: WalkContext, name: string, args: readonly TypeNode[], count: number, node: Ts.Node, env: Env): JSONSchemaProps | undefined {
  if (args.length === count) return undefined;
  return failAt(ctx, env.file, node, `${name} needs ${count} type argument${count > 1 ? 's' : ''}`);
}

/** Built-in TypeScript names: arrays, records, the utility types, and the ones JSON cannot carry. */
function globalType(ctx: WalkContext, name: string, args: readonly TypeNode[], node: Ts.Node, env: Env): JSONSchemaProps {
  switch (name) {
    case 'Array':
    case 'ReadonlyArray':
      return wrongArgCount(ctx, name, args, 1, node, env) ?? arrayOf(ctx, args[0]!, env);
    case 'Record':
      return wrongArgCount(ctx, name, args, 2, node, env) ?? record(ctx, args[0]!, args[1]!, env);
    case 'Readonly':
    case 'NonNullable': {
      const wrong = wrongArgCount(ctx, name, args, 1, node, env);
      if (wrong) return wrong;
      const schema = walkType(ctx, args[0]!, env);
      if (name === 'NonNullable') delete schema.nullable;
      return schema;
    }
    case 'Partial':
    case 'Required': {
      const wrong = wrongArgCount(ctx, name, args, 1, node, env);
      if (wrong) return wrong;
      const schema = walkType(ctx, args[0]!, env);
      if (ctx.broken.has(schema)) return schema;
      if (schema.type !== 'object' || !schema.properties) return failAt(ctx, env.file, node, `${name}<…> needs an object type with properties`);
      if (name === 'Partial') delete schema.required;
      else schema.required = Object.keys(schema.properties);
      return schema;
    }
    case 'Pick':
    case 'Omit': {
      const wrong = wrongArgCount(ctx, name, args, 2, node, env);
      if (wrong) return wrong;
      const schema = walkType(ctx, args[0]!, env);
      const keys = walkType(ctx, args[1]!, env);
      if (ctx.broken.has(schema) || ctx.broken.has(keys)) return ctx.broken.has(schema) ? schema : keys;
      if (schema.type !== 'object' || !schema.properties) return failAt(ctx, env.file, node, `${name}<…> needs an object type with properties`);
      if (keys.type !== 'string' || !keys.enum) return failAt(ctx, env.file, args[1]!, `${name} needs property names as string literals`, "e.g. 'a' | 'b'");
      const names = keys.enum as string[];
      const keep = (k: string) => (name === 'Pick' ? names.includes(k) : !names.includes(k));
      schema.properties = Object.fromEntries(Object.entries(schema.properties).filter(([k]) => keep(k)));
      if (schema.required) schema.required = schema.required.filter(keep);
      return schema;
    }
    case 'Date':
      return failAt(ctx, env.file, node, '`Date` is not JSON', 'use Time from @opgen/runtime/api (an RFC 3339 string)');
    case 'Map':
    case 'ReadonlyMap':
    case 'WeakMap':
      return failAt(ctx, env.file, node, `\`${name}\` is not JSON`, 'use Record<string, T>');
    case 'Set':
    case 'ReadonlySet':
    case 'WeakSet':
      return failAt(ctx, env.file, node, `\`${name}\` is not JSON`, 'use T[] with +listType=set');
    case 'Function':
      return failAt(ctx, env.file, node, 'functions cannot be part of an API type', 'API types describe JSON data');
    case 'Object':
      return failAt(ctx, env.file, node, '`Object` has no schema', 'use an interface, or Record<string, T> for a map');
    case 'BigInt':
      return failAt(ctx, env.file, node, '`BigInt` cannot be sent as JSON', 'use int64, or Quantity for large amounts');
    case 'Symbol':
      return failAt(ctx, env.file, node, '`Symbol` cannot be sent as JSON', 'use a string');
    case 'Promise':
      return failAt(ctx, env.file, node, '`Promise` is not data', 'API types describe JSON data');
    default:
      return failAt(ctx, env.file, node, `cannot find type ${name}`, 'declare it in src/api, or import it from @opgen/runtime/api or @kubernetes/client-node');
  }
}

function record(ctx: WalkContext, key: TypeNode, value: TypeNode, env: Env): JSONSchemaProps {
  const keys = walkType(ctx, key, env);
  if (ctx.broken.has(keys)) return keys;
  if (keys.type !== 'string') {
    return failAt(ctx, env.file, key, `map keys must be strings, not ${textOf(env, key)}`, 'JSON object keys are strings: use Record<string, T>');
  }
  const frame = ctx.stack[ctx.stack.length - 1];
  const saved = frame?.path;
  if (frame) frame.path += '{}';
  const values = walkType(ctx, value, env);
  if (frame) frame.path = saved!;
  if (ctx.broken.has(values)) return values;
  if (!keys.enum) return { type: 'object', additionalProperties: values };
  // Record<'a' | 'b', T> is an object with exactly those properties.
  const names = keys.enum as string[];
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((n) => [n, structuredClone(values)])),
    required: [...names],
  };
}

function argKey(bound: Bound): string {
  const node = bound.node;
  if (ts.isTypeReferenceNode(node)) {
    const inner = bound.env.params.get(textOf(bound.env, node.typeName));
    if (inner) return argKey(inner);
  }
  return `${textOf(bound.env, node)}@${bound.env.file.getFilePath()}`;
}

/** The walk cache's key of a declaration with these type arguments. */
function declarationKey(decl: Declaration, args: Bound[]): string {
  return `${decl.getSourceFile().getFilePath()}#${decl.getName()}${args.length ? `<${args.map(argKey).join(',')}>` : ''}`;
}

/**
 * Walks a declaration without type arguments for the errors of its markers and types alone;
 * one a Kind already used was checked by that walk, and is not copied out of the cache again.
 */
export function checkDeclaration(ctx: WalkContext, decl: Declaration): void {
  if (!ctx.cache.has(declarationKey(decl, []))) walkDeclaration(ctx, decl, [], { file: decl.getSourceFile(), node: decl.compilerNode.name });
}

/**
 * Walks a named declaration (with type arguments), its own markers and description included;
 * `use` is where it is referred to, for errors.
 */
export function walkDeclaration(ctx: WalkContext, decl: Declaration, args: Bound[], use: { file: SourceFile; node: Ts.Node }): JSONSchemaProps {
  const name = decl.getName();
  const key = declarationKey(decl, args);
  const at = ctx.stack.findIndex((f) => f.key === key);
  if (at >= 0) {
    const cycle = [...ctx.stack.slice(at).map((f) => `${f.name}${f.path}`), name].join(' -> ');
    return failAt(ctx, use.file, use.node, `recursive type: ${cycle}`, 'a CRD schema cannot refer to itself; refer by name, or hold the nested value as JSONValue');
  }
  const cached = ctx.cache.get(key);
  if (cached) return copySchema(ctx, cached);

  const params = new Map<string, Bound>();
  const typeParams = Node.isEnumDeclaration(decl) ? [] : (decl.compilerNode.typeParameters ?? []);
  if (args.length > typeParams.length) return failAt(ctx, use.file, use.node, `${name} takes ${typeParams.length} type argument(s), not ${args.length}`);
  const env: Env = { file: decl.getSourceFile(), params };
  for (const [i, param] of typeParams.entries()) {
    const arg = args[i];
    const paramName = textOf(env, param.name);
    if (arg) params.set(paramName, arg);
    else if (param.default) params.set(paramName, { node: param.default, env });
    else return failAt(ctx, use.file, use.node, `${name} needs a type argument for ${paramName}`);
  }

  ctx.stack.push({ key, name, path: '' });
  const comment = commentOf(ctx, env.file, decl.compilerNode, 'type', { kind: isRootDeclaration(decl) });
  let schema: JSONSchemaProps;
  if (Node.isInterfaceDeclaration(decl)) schema = interfaceSchema(ctx, decl, env, false);
  else if (Node.isTypeAliasDeclaration(decl)) schema = walkType(ctx, decl.compilerNode.type, env);
  else schema = enumSchema(ctx, decl);
  ctx.stack.pop();

  if (!ctx.broken.has(schema)) {
    applySchemaMarkers(schema, comment.markers, ctx);
    if (comment.description) schema.description = comment.description;
    ctx.cache.set(key, schema);
    return copySchema(ctx, schema);
  }
  return schema;
}

/** True for a declaration marked `+kubebuilder:object:root` (or `=true`, `:=true`) in the comments it takes. */
export function isRootDeclaration(decl: Node): boolean {
  const file = decl.getSourceFile();
  if (!commentsMention(file, decl.compilerNode, '+kubebuilder:object:root')) return false;
  return nodeCommentLines(file, decl.compilerNode).some((l) => /^\+kubebuilder:object:root(:?=true)?\s*$/.test(l.text));
}

function enumSchema(ctx: WalkContext, decl: EnumDeclaration): JSONSchemaProps {
  const values: (string | number)[] = [];
  let next = 0;
  for (const member of decl.getMembers()) {
    const init = member.getInitializer();
    if (!init) values.push(next++);
    else if (Node.isStringLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init)) values.push(init.getLiteralText());
    else {
      const n = Number(init.getText().replace(/_/g, '').replace(/\s/g, ''));
      if (!Number.isFinite(n)) return fail(ctx, member, `enum member ${member.getName()} must be a string or number literal`);
      values.push(n);
      next = n + 1;
    }
  }
  const strings = values.every((v) => typeof v === 'string');
  const numbers = values.every((v) => typeof v === 'number');
  if (!strings && !numbers) return fail(ctx, decl, `enum ${decl.getName()} mixes strings and numbers`, 'use one kind of value');
  if (strings) return { type: 'string', enum: values };
  return { type: values.every((v) => Number.isInteger(v)) ? 'integer' : 'number', enum: values };
}

/** An interface's schema: bases first (flattened), then its own members. `root` marks a Kind. */
export function interfaceSchema(ctx: WalkContext, decl: InterfaceDeclaration, env: Env, root: boolean): JSONSchemaProps {
  const bases = extendsOf(decl.compilerNode).map((clause) => ({
    node: clause,
    schema: walkReference(ctx, textOf(env, clause.expression), clause.typeArguments ?? [], clause, env),
  }));
  const merged = mergeObjects(ctx, env, bases, { type: 'object' });
  if (ctx.broken.has(merged)) return merged;
  return objectOf(ctx, decl.compilerNode.members, env, merged, root);
}

/** The types an interface extends. */
export function extendsOf(decl: Ts.InterfaceDeclaration): readonly Ts.ExpressionWithTypeArguments[] {
  return decl.heritageClauses?.find((clause) => clause.token === SyntaxKind.ExtendsKeyword)?.types ?? [];
}

function objectOf(
  ctx: WalkContext,
  members: readonly Ts.TypeElement[],
  env: Env,
  into: JSONSchemaProps = { type: 'object' },
  root = false,
): JSONSchemaProps {
  const required = new Set(into.required ?? []);
  const immutable: string[] = [];
  let broken = false;
  let indexValue: JSONSchemaProps | undefined;
  let indexNode: Ts.Node | undefined;
  for (const member of members) {
    if (ts.isPropertySignature(member)) {
      const prop = property(ctx, member, env, root);
      if (!prop) {
        broken = true;
        continue;
      }
      // `into` and its properties are this walk's own (mergeObjects copies the bases'), so
      // they are filled in place rather than copied for every property.
      // defineProperty: a property called __proto__ is a key like any other.
      Object.defineProperty((into.properties ??= {}), prop.name, { value: prop.schema, enumerable: true, writable: true, configurable: true });
      if (prop.required) required.add(prop.name);
      else required.delete(prop.name);
      if (prop.immutable) immutable.push(prop.name);
    } else if (ts.isIndexSignatureDeclaration(member)) {
      const keyType = member.parameters[0]?.type;
      if (keyType?.kind !== SyntaxKind.StringKeyword) {
        const at = keyType ?? member;
        failAt(ctx, env.file, at, `index signature keys must be strings, not ${textOf(env, at)}`, 'JSON object keys are strings: use [key: string]: T');
        broken = true;
        continue;
      }
      const frame = ctx.stack[ctx.stack.length - 1];
      const saved = frame?.path;
      if (frame) frame.path += '{}';
      indexValue = member.type ? walkType(ctx, member.type, env) : failAt(ctx, env.file, member, 'index signature has no value type', 'write its type');
      if (frame) frame.path = saved!;
      indexNode = member;
      if (ctx.broken.has(indexValue)) broken = true;
    } else {
      failAt(ctx, env.file, member, 'methods and call signatures cannot be part of an API type', 'API types describe JSON data');
      broken = true;
    }
  }
  if (indexValue && !broken) {
    if (into.properties && Object.keys(into.properties).length) {
      return failAt(
        ctx,
        env.file,
        indexNode!,
        'an object cannot have both named properties and an index signature',
        'move the map into a property of its own (e.g. items: Record<string, T>)',
      );
    }
    into.additionalProperties = indexValue;
  }
  if (broken) {
    const placeholder: JSONSchemaProps = {};
    ctx.broken.add(placeholder);
    return placeholder;
  }
  if (required.size) into.required = [...required].sort();
  else delete into.required;
  const parentRules = immutable.filter((name) => !required.has(name)).map(immutableParentRule);
  if (parentRules.length) into['x-kubernetes-validations'] = [...(into['x-kubernetes-validations'] ?? []), ...parentRules];
  return into;
}

/** The name a property is written under in JSON. */
export function propertyName(ctx: WalkContext, member: Ts.PropertySignature, env: Env): string | undefined {
  const name = member.name;
  if (ts.isIdentifier(name)) return textOf(env, name);
  if (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  failAt(ctx, env.file, name, 'computed property names cannot be mapped to a schema', 'write the name out');
  return undefined;
}

function property(
  ctx: WalkContext,
  member: Ts.PropertySignature,
  env: Env,
  root: boolean,
): { name: string; schema: JSONSchemaProps; required: boolean; immutable: boolean } | undefined {
  const name = propertyName(ctx, member, env);
  if (name === undefined) return undefined;
  const frame = ctx.stack[ctx.stack.length - 1];
  const saved = frame?.path;
  if (frame) frame.path += `.${name}`;
  try {
    const comment = commentOf(ctx, env.file, member, 'field');
    const has = (canonical: string) => comment.markers.find((m) => m.canonical === canonical);
    const typeNode = member.type;
    let schema: JSONSchemaProps;
    if (root && name === 'metadata') {
      schema = { type: 'object' };
    } else if (has('kubebuilder:validation:Schemaless')) {
      schema = {};
    } else if (!typeNode) {
      schema = failAt(ctx, env.file, member, `property ${name} has no type`, 'write its type');
    } else {
      schema = walkType(ctx, typeNode, env);
    }
    if (ctx.broken.has(schema)) return undefined;
    if (!(root && name === 'metadata')) {
      applySchemaMarkers(schema, comment.markers, ctx);
      if (comment.description) schema.description = comment.description;
      if (has('kubebuilder:skip:description')) dropDescriptions(schema);
      const csv = csvMarkers(ctx, comment.markers, 'field');
      if (csv.length) (ctx.csv ??= new WeakMap()).set(schema, csv);
    }
    const required = requiredness(ctx, member, comment, typeNode, env);
    ctx.locations.set(schema, locationAt(ctx, env.file, member));
    return { name, schema, required, immutable: Boolean(has('k8s:immutable')) };
  } finally {
    if (frame) frame.path = saved!;
  }
}

function requiredness(ctx: WalkContext, member: Ts.PropertySignature, comment: CommentBlock, typeNode: TypeNode | undefined, env: Env): boolean {
  const req = comment.markers.filter((m) => m.canonical === requiredMarker);
  const opt = comment.markers.filter((m) => m.canonical === optionalMarker);
  if (req.length && opt.length) {
    ctx.errors.push(new UserError(`${req[0]!.text} and ${opt[0]!.text} contradict each other`, opt[0]!.location, 'keep one of them'));
  }
  if (req.length) return true;
  if (opt.length) return false;
  if (member.questionToken || (typeNode && admitsUndefined(typeNode))) return false;
  return !ctx.optionalByDefault(env.file);
}

/** The operator-sdk CSV markers among `markers`, read; malformed ones go to the errors. */
export function csvMarkers(ctx: WalkContext, markers: readonly Marker[], on: 'type' | 'field'): CsvMarker[] {
  const out: CsvMarker[] = [];
  for (const marker of markers) {
    if (marker.canonical !== csvMarkerName) continue;
    try {
      out.push(readCsvMarker(marker, on));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      ctx.errors.push(error);
    }
  }
  return out;
}

/** Removes every description below and including `schema`. */
export function dropDescriptions(schema: JSONSchemaProps): void {
  delete schema.description;
  ownChildren(schema);
  for (const child of Object.values(schema.properties ?? {})) dropDescriptions(child);
  if (schema.items) dropDescriptions(schema.items);
  if (typeof schema.additionalProperties === 'object') dropDescriptions(schema.additionalProperties);
}
