import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const runtime = fileURLToPath(new URL('../../runtime/', import.meta.url));
const templates = fileURLToPath(new URL('../../src/templates/', import.meta.url));

const manifest = JSON.parse(readFileSync(join(runtime, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; import: string }> };
/** The source of each export of the package, by subpath. */
const entries = new Map(Object.entries(manifest.exports).map(([subpath, target]) => [subpath, join(runtime, target.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))]));

/** One program over every entry: the checker answers what each exports (values and types). */
let checker: ts.TypeChecker | undefined;
let program: ts.Program | undefined;
function exportedNames(file: string): string[] {
  program ??= ts.createProgram([...entries.values()], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, skipLibCheck: true });
  checker ??= program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker.getExportsOfModule(module).map((symbol) => symbol.name).sort();
}

function templateFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? templateFiles(path) : entry.name.endsWith('.hbs') ? [path] : [];
  });
}

/** Every name a template (today's or a kept release's) imports from the root `@opgen/runtime`, handlebars blocks included. */
function rootImportsOfTemplates(): Map<string, string> {
  const names = new Map<string, string>();
  for (const file of templateFiles(templates)) {
    const text = readFileSync(file, 'utf8').replace(/\{\{[#/][^}]*\}\}/g, '');
    for (const match of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@opgen\/runtime'/g)) {
      for (const part of match[1]!.split(',')) {
        const name = part.replace(/^\s*type\s+/, '').trim();
        if (name && !name.startsWith('{{')) names.set(name, file.slice(templates.length));
      }
    }
  }
  // webhook.ts.hbs imports `{{runtimeImports}}`, filled by the webhook generator.
  for (const name of ['deny', 'kinds', 'webhook', 'Manager']) names.set(name, 'scaffold/webhook/webhook.ts.hbs');
  return names;
}

describe("@opgen/runtime's public surface", () => {
  const root = exportedNames(entries.get('.')!);

  it('the root export holds at most 40 names: what an operator author uses', () => {
    expect(root.length).toBeGreaterThan(20);
    expect(root.length).toBeLessThanOrEqual(40);
    // The plumbing is in subpaths, not beside `controller`.
    for (const plumbing of ['createWorkQueue', 'createTokenBucket', 'runLeaderElection', 'createCache', 'createMetrics']) expect(root).not.toContain(plumbing);
  });

  it('keeps every name the scaffold imports from the root, 0.1.0 starter files included', () => {
    const imported = rootImportsOfTemplates();
    expect(imported.size).toBeGreaterThan(10);
    const missing = [...imported].filter(([name]) => !root.includes(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });

  it('each subpath export is an index with a module comment that shows an example', () => {
    const subpaths = [...entries.keys()].filter((path) => path !== '.');
    for (const wanted of ['./cache', './client', './queue', './leaderelection']) expect(subpaths).toContain(wanted);
    for (const subpath of subpaths) {
      const source = entries.get(subpath)!;
      const opening = /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(source, 'utf8'))?.[1] ?? '';
      expect({ subpath, module: opening.includes('@module'), example: opening.includes('@example') }).toEqual({ subpath, module: true, example: true });
      expect(exportedNames(source).length, subpath).toBeGreaterThan(0);
    }
  });
});
