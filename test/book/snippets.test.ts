import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidFields } from '@opgen/runtime/webhook';
import { defaultWidget, fromHub, toHub, validateWidget } from '../../book/snippets/widget-webhook.js';
import type { Widget } from '../../book/snippets/widget-types.js';
import { importBookApis, type BookImport } from './external-apis.js';

const book = new URL('../../book/', import.meta.url).pathname;
const pages = readdirSync(book).filter((f) => f.endsWith('.md'));

/** `<<< @/snippets/file#region` lines of every page, with where they are. */
function snippetImports(): { page: string; line: number; file: string; region?: string }[] {
  return pages.flatMap((page) =>
    readFileSync(join(book, page), 'utf8')
      .split('\n')
      .flatMap((text, i) => {
        const m = /^<<< @\/snippets\/([^#{\s]+)(?:#([\w-]+))?/.exec(text);
        return m?.[1] ? [{ page, line: i + 1, file: m[1], region: m[2] }] : [];
      }),
  );
}

describe('the book’s code samples', () => {
  // web-routes.ts imports what `opgen import crd` writes: book/snippets/external/.
  let imported: BookImport;
  beforeAll(async () => {
    imported = await importBookApis();
  });
  afterAll(async () => imported?.remove());

  it('type-check against the built runtime', async () => {
    const tsc = new URL('../../node_modules/typescript/bin/tsc', import.meta.url).pathname;
    const run = promisify(execFile)(process.execPath, [tsc, '-p', join(book, 'snippets/tsconfig.json')]);
    await expect(run.catch((e: { stdout: string }) => Promise.reject(new Error(e.stdout)))).resolves.toBeDefined();
  });

  it('are all included from snippet files, whose files and regions exist', () => {
    const imports = snippetImports();
    expect(imports.length).toBeGreaterThan(20);
    for (const { page, line, file, region } of imports) {
      const path = join(book, 'snippets', file);
      expect(existsSync(path), `${page}:${line}: ${file} does not exist`).toBe(true);
      if (region) expect(readFileSync(path, 'utf8'), `${page}:${line}: no region ${region} in ${file}`).toMatch(new RegExp(`// #region ${region}\\n[\\s\\S]*// #endregion ${region}\\n`));
    }
    // Code in a page's own text would not be compiled: only shell commands (test/book/commands.test.ts
    // runs them) and transcripts of them may be written there.
    for (const page of pages) {
      const fences = [...readFileSync(join(book, page), 'utf8').matchAll(/^```(\w*)/gm)].map((m) => m[1]).filter((_lang, i) => i % 2 === 0);
      expect(fences.filter((lang) => lang !== 'sh' && lang !== 'console'), `${page}: a fenced block that is neither sh nor console`).toEqual([]);
    }
  });

  it('the validator refuses with one cause per field, as apierrors.NewInvalid', () => {
    const widget: Widget = { metadata: { name: 'w' }, spec: { size: 3, owner: '' } };
    let refused: unknown;
    try {
      validateWidget(widget);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(InvalidFields);
    expect((refused as InvalidFields).errors.map((e) => `${e.field} ${e.type}`)).toEqual(['spec.size Invalid', 'spec.owner Required']);
    expect(() => validateWidget({ spec: { size: 4 } })).not.toThrow();
  });

  it('the defaulter fills the owner and keeps one given', () => {
    const plain: Widget = { spec: { size: 2 } };
    defaultWidget(plain);
    expect(plain.spec.owner).toBe('platform-team');
    const owned: Widget = { spec: { size: 2, owner: 'me' } };
    defaultWidget(owned);
    expect(owned.spec.owner).toBe('me');
  });

  it('the conversion round-trips v1 through the v2 hub', () => {
    const v1: Widget = { apiVersion: 'web.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 5, owner: 'me' } };
    const hub = toHub(v1);
    expect(hub.spec).toEqual({ replicas: 5, owner: 'me' });
    expect(fromHub(hub)).toEqual(v1);
  });
});
