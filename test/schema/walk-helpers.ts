import { parseSourceFiles } from '../../src/crd/discover.js';
import { formatUserError } from '../../src/errors.js';
import { createContext } from '../../src/schema/context.js';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { walkDeclaration } from '../../src/schema/walk.js';
import { checkMarkerValues } from '../../src/validation/marker-values.js';

export const apiImports = `import type { int32, int64, integer, Quantity, IntOrString, Time, MicroTime, Duration, Bytes, RawExtension, JSONValue, ObjectMeta, Condition, ObjectReference, LocalObjectReference } from '@opgen/runtime/api';\nimport type { V1PodTemplateSpec, V1ResourceRequirements } from '@kubernetes/client-node';\n`;

/**
 * Walks the type `name` declared in `source` (file src/api/v1/t.ts of a project at /p, with
 * the runtime and client imports above it) and returns its schema and the formatted errors.
 */
export function walk(
  source: string,
  name = 'T',
  options: { files?: Record<string, string>; optionalByDefault?: boolean } = {},
): { schema: JSONSchemaProps; errors: string[] } {
  const texts = new Map([['/p/src/api/v1/t.ts', apiImports + source]]);
  for (const [path, text] of Object.entries(options.files ?? {})) texts.set(`/p/${path}`, text);
  const files = parseSourceFiles(texts);
  const file = files.get('/p/src/api/v1/t.ts')!;
  const ctx = createContext({ files, root: '/p', optionalByDefault: () => options.optionalByDefault ?? false });
  const decl = file.getInterface(name) ?? file.getTypeAlias(name) ?? file.getEnumOrThrow(name);
  const schema = walkDeclaration(ctx, decl, [], { file, node: decl.compilerNode });
  ctx.errors.push(...checkMarkerValues(ctx.checks));
  return { schema, errors: ctx.errors.map(formatUserError) };
}

/** The schema of `T.f` for a one-field interface `interface T { f: <type> }` with `comment` above f. */
export function field(type: string, comment = '', prelude = ''): { schema: JSONSchemaProps | undefined; errors: string[] } {
  const doc = comment ? `  /**\n${comment.split('\n').map((l) => `   * ${l}`).join('\n')}\n   */\n` : '';
  const result = walk(`${prelude}\nexport interface T {\n${doc}  f: ${type};\n}\n`);
  return { schema: result.schema.properties?.f, errors: result.errors };
}

/** The line of `src/api/v1/t.ts` on which `text` first appears (1-based). */
export function lineOf(source: string, text: string): number {
  return (apiImports + source).split('\n').findIndex((l) => l.includes(text)) + 1;
}
