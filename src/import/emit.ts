/**
 * TypeScript text of one imported version: the header, the runtime imports, the
 * declarations with their comments, and the Kind's `defineKind` handle.
 *
 * @module
 */
import type { Decl, VersionTypes } from './model.js';
import { propertyKey } from './names.js';

/** What the handle of the Kind says besides its group and version. */
export interface HandleInfo {
  kind: string;
  plural: string;
  namespaced: boolean;
}

/** The file for one version; `header` is its generated-file comment, one line per entry. */
export function emitVersion(types: VersionTypes, handle: HandleInfo, header: readonly string[]): string {
  const out: string[] = header.map((line) => `// ${line}`);
  // An object without properties is an empty interface, which the scaffold's lint rules refuse.
  if (types.decls.some((d) => d.kind === 'interface' && !d.fields.length)) out.push('/* eslint-disable @typescript-eslint/no-empty-object-type */');
  out.push(`import { defineKind, ${['ObjectMeta', ...types.uses].map((t) => `type ${t}`).join(', ')} } from '@opgen/runtime/api';`);
  out.push("import { groupVersion } from './groupversion_info.js';", '');
  for (const decl of types.decls) out.push(...declaration(decl), '');
  out.push(
    `/** The run-time handle of ${handle.kind}: what the client, the cache and controllers take. */`,
    `export const ${handle.kind} = defineKind<${handle.kind}, ${handle.namespaced}>({ ...groupVersion, kind: '${handle.kind}', plural: '${handle.plural}', namespaced: ${handle.namespaced} });`,
    '',
  );
  return out.join('\n');
}

/** `groupversion_info.ts` of an imported group version. */
export function emitGroupVersion(group: string, version: string, header: readonly string[]): string {
  return [
    ...header.map((line) => `// ${line}`),
    '',
    '/**',
    ` * Version ${version} of the ${group} API group, imported: the kinds in this folder.`,
    ` * +groupName=${group}`,
    ' */',
    `export const groupVersion = { group: '${group}', version: '${version}' } as const;`,
    '',
  ].join('\n');
}

function declaration(decl: Decl): string[] {
  const head = comment([...decl.doc, ...decl.markers], '');
  if (decl.kind === 'alias') return [...head, `export type ${decl.name} = ${decl.type};`];
  if (!decl.fields.length) return [...head, `export interface ${decl.name} {}`];
  const body = decl.fields.flatMap((f) => [...comment([...f.doc, ...f.markers], '  '), `  ${propertyKey(f.name)}${f.optional ? '?' : ''}: ${f.type};`]);
  return [...head, `export interface ${decl.name} {`, ...body, '}'];
}

/** A JSDoc block, or `//` lines when a line would end the block early. */
function comment(lines: readonly string[], indent: string): string[] {
  if (!lines.length) return [];
  if (lines.some((line) => line.includes('*/'))) return lines.map((line) => (line ? `${indent}// ${line}` : `${indent}//`));
  return [`${indent}/**`, ...lines.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)), `${indent} */`];
}
