import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One edge of an import graph (between folders or files) and the file imports behind it, for a message that says where to look. */
export interface FolderEdge {
  from: string;
  to: string;
  imports: string[];
}

/**
 * The folder-level import graph of the TypeScript sources under `root` (tests left out):
 * each top-level folder is a node, each file directly under `root` a node of its own. Every
 * relative import counts, type-only and dynamic ones too: a cycle of types is still a cycle
 * in the design.
 */
export function folderGraph(root: string): FolderEdge[] {
  return importGraph(root, (path) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : path));
}

/** The file-level import graph of the TypeScript sources under `root` (tests left out): each file a node. */
export function fileGraph(root: string): FolderEdge[] {
  return importGraph(root, (path) => path);
}

function importGraph(root: string, nodeOfPath: (path: string) => string): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  const nodeOf = (file: string) => nodeOfPath(relative(root, file));
  for (const file of sources(root)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName).replace(/\.js$/, '.ts');
      const from = nodeOf(file);
      const to = nodeOf(target);
      if (from === to) continue;
      const key = `${from}\0${to}`;
      const edge = edges.get(key) ?? { from, to, imports: [] };
      edge.imports.push(`${relative(root, file)} → ${relative(root, target)}`);
      edges.set(key, edge);
    }
  }
  return [...edges.values()];
}

/** The cycles of a graph, one per strongly connected component of two or more nodes, each as its edges. */
export function cycles(edges: readonly FolderEdge[]): FolderEdge[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const reach = (start: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      for (const node of next.get(stack.pop()!) ?? []) {
        if (!seen.has(node)) {
          seen.add(node);
          stack.push(node);
        }
      }
    }
    return seen;
  };
  const reachable = new Map([...next.keys()].map((node) => [node, reach(node)]));
  const components = new Map<string, string[]>();
  for (const [node, seen] of reachable) {
    if (!seen.has(node)) continue;
    const component = [...seen].filter((other) => reachable.get(other)?.has(node)).sort();
    components.set(component.join(','), component);
  }
  return [...components.values()].map((component) => edges.filter((e) => component.includes(e.from) && component.includes(e.to)));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}
