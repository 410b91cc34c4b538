import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, fileGraph, folderGraph, type FolderEdge } from './import-graph.js';

const describeCycle = (cycle: FolderEdge[]) => cycle.map((e) => `${e.from} → ${e.to} (${e.imports.slice(0, 3).join(', ')})`).join('; ');

describe('the sources import each other without cycles', () => {
  for (const tree of ['src', 'runtime/src']) {
    it(tree, () => {
      const root = fileURLToPath(new URL(`../../${tree}`, import.meta.url));
      const graph = folderGraph(root);
      // The graph is real: the layers this test guards are in it.
      expect(graph.length).toBeGreaterThan(10);
      expect(cycles(graph).map(describeCycle)).toEqual([]);
    });
  }

  // Inside one folder too: a file cycle makes load order matter (a class used before its
  // module finished evaluating) and means the shared piece has no home of its own.
  for (const tree of ['src', 'runtime/src']) {
    it(`${tree}, file by file`, () => {
      const root = fileURLToPath(new URL(`../../${tree}`, import.meta.url));
      const graph = fileGraph(root);
      expect(graph.length).toBeGreaterThan(100);
      expect(cycles(graph).map(describeCycle)).toEqual([]);
    });
  }

  it('finds a cycle through several folders and names its imports', () => {
    const edge = (from: string, to: string): FolderEdge => ({ from, to, imports: [`${from}/a.ts → ${to}/b.ts`] });
    const found = cycles([edge('client', 'rest'), edge('rest', 'cache'), edge('cache', 'client'), edge('manager', 'client')]);
    expect(found.map(describeCycle)).toEqual([
      'client → rest (client/a.ts → rest/b.ts); rest → cache (rest/a.ts → cache/b.ts); cache → client (cache/a.ts → client/b.ts)',
    ]);
  });
});
