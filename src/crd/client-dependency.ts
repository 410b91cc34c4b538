/**
 * API files may name Kubernetes types through `@kubernetes/client-node` models, but a
 * project only gets that package through @opgen/runtime's own dependencies, which a strict
 * installer hides: without a dependency of its own, the import compiles here and fails as
 * TS2307 later, somewhere else. Say so at the import instead.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { UserError } from '../errors.js';
import { clientModule } from '../schema/resolve.js';

const dependencyFields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** Whether the project's package.json depends on the client; `undefined` when it has none to read. */
async function dependsOnClient(root: string): Promise<boolean | undefined> {
  let manifest: Partial<Record<(typeof dependencyFields)[number], Record<string, string>>>;
  try {
    manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  return dependencyFields.some((field) => manifest[field]?.[clientModule] !== undefined);
}

// An import or re-export declaration (possibly over several lines) from the client module.
const clientImport = /^[ \t]*(?:import|export)\b[^;'"]*?\bfrom\s*(['"])@kubernetes\/client-node\1/gm;

/**
 * One located error per import of `@kubernetes/client-node` in the API files (absolute
 * path → text) of a project at `root` whose package.json does not depend on it.
 */
export async function clientDependencyErrors(root: string, apiFiles: ReadonlyMap<string, string>): Promise<UserError[]> {
  const imports = [...apiFiles].flatMap(([path, text]) =>
    // Located at the module name's opening quote, the last thing the pattern matched.
    [...text.matchAll(clientImport)].map((match) => ({ path, text, at: match.index + match[0].length - clientModule.length - 2 })),
  );
  if (imports.length === 0 || (await dependsOnClient(root)) !== false) return [];
  return imports.map(({ path, text, at }) => {
    const before = text.slice(0, at);
    return new UserError(
      `${clientModule} is imported but package.json does not depend on it`,
      { file: relative(root, path).split('\\').join('/'), line: before.split('\n').length, column: at - before.lastIndexOf('\n') },
      `import the type from @opgen/runtime/api without the version prefix (PodTemplateSpec for V1PodTemplateSpec), or npm install ${clientModule}`,
    );
  });
}
