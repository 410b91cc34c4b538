import { relative } from 'node:path';
import type { Node, SourceFile, ts as Ts } from 'ts-morph';
import { UserError, type Location } from '../errors.js';
import { locate } from '../markers/comments.js';
import type { CsvMarker } from '../markers/olm.js';
import type { MarkerCheck } from './checks.js';
import type { FileIndex } from './resolve.js';
import { isShared } from './shared.js';
import type { JSONSchemaProps } from './types.js';

/** One named type being walked, for cycle detection and the cycle's description. */
export interface Frame {
  key: string;
  name: string;
  /** The property path walked inside this type so far, e.g. `.children[]`. */
  path: string;
}

/** State shared by one walk over a project's API files. */
export interface WalkContext {
  files: FileIndex;
  /** Project root; locations are shown relative to it. */
  root: string;
  errors: UserError[];
  /** What markers wrote that validation checks after the walk (`checkMarkerValues`). */
  checks: MarkerCheck[];
  /** True when the file's version folder says `+kubebuilder:validation:Optional`. */
  optionalByDefault(file: SourceFile): boolean;
  /** Finished schemas of named types by instantiation key; handed out as copies. */
  cache: Map<string, JSONSchemaProps>;
  stack: Frame[];
  /** Where each field's schema was declared, to place errors found later (structural checks). */
  locations: WeakMap<JSONSchemaProps, Location>;
  /** Nodes that stand in for a type that failed, so its markers do not cascade into more errors. */
  broken: WeakSet<JSONSchemaProps>;
  /**
   * operator-sdk CSV markers of each field's schema, kept for an OLM bundle; created with the
   * first one, so that projects without them pay nothing when schemas are copied.
   */
  csv?: WeakMap<JSONSchemaProps, CsvMarker[]>;
}

/** A fresh context. */
export function createContext(options: {
  files: FileIndex;
  root: string;
  optionalByDefault?: (file: SourceFile) => boolean;
}): WalkContext {
  return {
    files: options.files,
    root: options.root,
    errors: [],
    checks: [],
    optionalByDefault: options.optionalByDefault ?? (() => false),
    cache: new Map(),
    stack: [],
    locations: new WeakMap(),
    broken: new WeakSet(),
  };
}

/** The path of a file as the user sees it: relative to the project root, `/`-separated. */
export function displayPath(ctx: Pick<WalkContext, 'root'>, file: SourceFile): string {
  const known = displayPaths.get(file);
  if (known?.root === ctx.root) return known.path;
  const path = relative(ctx.root, file.getFilePath()).split('\\').join('/');
  displayPaths.set(file, { root: ctx.root, path });
  return path;
}

/** Asked for every node that may carry an error, so computed once per file. */
const displayPaths = new WeakMap<SourceFile, { root: string; path: string }>();

/** Where a node starts. */
export function locationOf(ctx: Pick<WalkContext, 'root'>, node: Node): Location {
  return locationAt(ctx, node.getSourceFile(), node.compilerNode);
}

/** A deep copy of a schema that keeps what is recorded about its nodes (locations, CSV markers). */
export function copySchema(ctx: WalkContext, schema: JSONSchemaProps): JSONSchemaProps {
  return copyValue(ctx, schema) as JSONSchemaProps;
}

function copyValue(ctx: WalkContext, value: unknown): unknown {
  // A shared (frozen) built-in subtree can never change, so every copy may share it too.
  if (value === null || typeof value !== 'object' || isShared(value)) return value;
  if (Array.isArray(value)) return value.map((item) => copyValue(ctx, item));
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = copyValue(ctx, (value as Record<string, unknown>)[key]);
  const at = ctx.locations.get(value as JSONSchemaProps);
  if (at) ctx.locations.set(copy as JSONSchemaProps, at);
  const csv = ctx.csv?.get(value as JSONSchemaProps);
  if (csv) ctx.csv!.set(copy as JSONSchemaProps, csv);
  return copy;
}

/** Records an error at `node` and returns a placeholder schema that suppresses follow-on errors. */
export function fail(ctx: WalkContext, node: Node, message: string, hint?: string): JSONSchemaProps {
  return failAt(ctx, node.getSourceFile(), node.compilerNode, message, hint);
}

/**
 * Where a TypeScript node of `file` starts. The walker reads TypeScript's nodes directly
 * (wrapping each in a ts-morph node costs measurably in a large API); same place as {@link locationOf}.
 */
export function locationAt(ctx: Pick<WalkContext, 'root'>, file: SourceFile, node: Ts.Node): Location {
  return { file: displayPath(ctx, file), ...locate(file, node.getStart(file.compilerNode)) };
}

/** {@link fail} at a TypeScript node of `file`. */
export function failAt(ctx: WalkContext, file: SourceFile, node: Ts.Node, message: string, hint?: string): JSONSchemaProps {
  ctx.errors.push(new UserError(message, locationAt(ctx, file, node), hint));
  const placeholder: JSONSchemaProps = {};
  ctx.broken.add(placeholder);
  return placeholder;
}
