import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSourceFiles } from '../../src/crd/discover.js';
import { readComment } from '../../src/markers/block.js';
import { allCommentLines, fileCommentRanges, isTakenComment, leadingCommentLines, takenCommentRanges } from '../../src/markers/comments.js';

function declaration(text: string, name = 'Foo') {
  const file = parseSourceFiles(new Map([['/p/src/api/v1/foo.ts', text]])).get('/p/src/api/v1/foo.ts')!;
  const decl = file.getInterface(name) ?? file.getTypeAliasOrThrow(name);
  return readComment(leadingCommentLines(decl), 'src/api/v1/foo.ts');
}

describe('comment blocks', () => {
  it('reads the JSDoc above a declaration: description without markers, each marker located', () => {
    const block = declaration(['', '/**', ' * Foo is a thing.', ' * It has parts.', ' * +kubebuilder:object:root=true', ' * @maxLength 10', ' */', 'export interface Foo {}'].join('\n'));
    expect(block.description).toBe('Foo is a thing.\nIt has parts.');
    expect(block.markers.map((m) => [m.canonical, m.location.line, m.location.column])).toEqual([
      ['kubebuilder:object:root', 5, 4],
      ['kubebuilder:validation:MaxLength', 6, 4],
    ]);
  });

  it('reads consecutive // lines and consecutive comment blocks as the description, but not across a blank line', () => {
    const block = declaration(['// Not this: it is separated by a blank line.', '', '// Foo is a thing.', '/** +listType=atomic */', 'export type Foo = string[];'].join('\n'));
    expect(block.description).toBe('Foo is a thing.');
    expect(block.markers.map((m) => m.text)).toEqual(['+listType=atomic']);
  });

  it('reads plain /* */ comments as Go reads them: a doc comment when directly above, never text when a blank line away', () => {
    expect(declaration(['/* Foo is a thing. */', 'export interface Foo {}'].join('\n')).description).toBe('Foo is a thing.');
    expect(declaration(['/*', 'Foo is a thing', 'of many parts.', '*/', 'export interface Foo {}'].join('\n')).description).toBe('Foo is a thing\nof many parts.');
    const licensed = declaration(['/*', 'Copyright 2026.', '', 'Licensed under the Apache License.', '*/', '', '// Foo is a thing.', 'export interface Foo {}'].join('\n'));
    expect(licensed.description).toBe('Foo is a thing.');
    expect(licensed.errors).toEqual([]);
  });

  it('takes the markers, not the text, of the group one blank line above the doc comment, and nothing further up', () => {
    const block = declaration(
      ['// +kubebuilder:validation:MinLength=3', '', '', '// +kubebuilder:validation:MaxLength=9', '// Not a description.', '', '// Foo is a thing.', 'export type Foo = string;'].join('\n'),
    );
    expect(block.description).toBe('Foo is a thing.');
    expect(block.markers.map((m) => m.text)).toEqual(['+kubebuilder:validation:MaxLength=9']);
  });

  it('keeps indentation past the comment margin, as Go keeps it after //', () => {
    expect(declaration(['// Mode is one of:', '//   - "Fast": no checks', '//   - "Safe": every check', 'export type Foo = string;'].join('\n')).description).toBe(
      'Mode is one of:\n  - "Fast": no checks\n  - "Safe": every check',
    );
    expect(declaration(['/**', ' * Mode is one of:', ' *   - Fast', ' */', 'export type Foo = string;'].join('\n')).description).toBe('Mode is one of:\n  - Fast');
  });

  it('keeps TODO and --- lines inside a fenced code block', () => {
    const block = declaration(['/**', ' * Example:', ' * ```', ' * TODO: fill in', ' * ---', ' * ```', ' * TODO: not this', ' * ---', ' * Nor this.', ' */', 'export interface Foo {}'].join('\n'));
    expect(block.description).toBe('Example:\n```\nTODO: fill in\n---\n```');
  });

  it('drops TODO lines and everything after a --- line', () => {
    const block = declaration(['/**', ' * Foo is a thing.', ' * TODO: make it better', ' *', ' * Second paragraph.', ' * ---', ' * Internal notes.', ' */', 'export interface Foo {}'].join('\n'));
    expect(block.description).toBe('Foo is a thing.\n\nSecond paragraph.');
  });

  it('collects every error of a block, each at its line', () => {
    const block = declaration(['/**', ' * +kubebuilder:validation:Maximun=3', ' * +kubebuilder:validation:MinLength=x', ' */', 'export interface Foo {}'].join('\n'));
    expect(block.errors.map((e) => [e.message, e.location?.line])).toEqual([
      ['unknown marker +kubebuilder:validation:Maximun', 2],
      ['malformed marker +kubebuilder:validation:MinLength=x: expected an integer, found "x"', 3],
    ]);
  });

  it('reads every comment of a file for the file-level markers of groupversion_info.ts', () => {
    const file = parseSourceFiles(new Map([['/p/g.ts', '// +groupName=storage.example.com\n/** +versionName=v1 */\nexport const x = 1;\n']])).get('/p/g.ts')!;
    const block = readComment(allCommentLines(file), 'g.ts');
    expect(block.markers.map((m) => [m.canonical, m.value])).toEqual([
      ['groupName', 'storage.example.com'],
      ['versionName', 'v1'],
    ]);
  });
});

describe('JSDoc tags', () => {
  it('reads each schema tag as its kubebuilder twin', () => {
    const block = declaration(
      ['/**', ' * @minimum 1', ' * @maximum 10', ' * @pattern ^[a-z]+$', ' * @default "x"', ' * @nullable', ' * @title The Foo', ' * @uniqueItems', ' */', 'export type Foo = string;'].join('\n'),
    );
    expect(block.errors).toEqual([]);
    expect(block.markers.map((m) => [m.canonical, m.value])).toEqual([
      ['kubebuilder:validation:Minimum', 1],
      ['kubebuilder:validation:Maximum', 10],
      ['kubebuilder:validation:Pattern', '^[a-z]+$'],
      ['default', { kind: 'json', value: 'x' }],
      ['nullable', true],
      ['kubebuilder:title', 'The Foo'],
      ['kubebuilder:validation:UniqueItems', true],
    ]);
  });

  it('leaves documentation tags in the description and flags misspelt schema tags', () => {
    const block = declaration(['/**', ' * Foo.', ' * @deprecated use Bar', ' * @Minimum 1', ' * @maxLenght 3', ' */', 'export type Foo = string;'].join('\n'));
    expect(block.description).toBe('Foo.\n@deprecated use Bar');
    expect(block.errors.map((e) => [e.message, e.hint])).toEqual([
      ['unknown tag @Minimum', 'did you mean @minimum?'],
      ['unknown tag @maxLenght', 'did you mean @maxLength?'],
    ]);
  });

  it('explains that @exclusiveMinimum is a flag, and that @default takes JSON', () => {
    const block = declaration(['/**', ' * @exclusiveMinimum 0', ' * @default fast', ' */', 'export type Foo = number;'].join('\n'));
    expect(block.errors.map((e) => e.hint)).toEqual([
      '@exclusiveMinimum is true or false, as in kubebuilder; put the bound in @minimum',
      'strings need double quotes, e.g. @default "text"',
    ]);
  });
});

describe('taken comments', () => {
  // Every API file of the examples and of the conformance suite, and one with a comment at
  // each place a marker can go astray.
  const astray = [
    '/** +kubebuilder:object:root=true */',
    '',
    '',
    '// +kubebuilder:validation:Optional two blank lines away',
    '',
    '/** Foo. */',
    'export interface Foo {',
    '  a: string; // +optional on the same line',
    '  /** +optional */ b?: { /* +listType=atomic */ c: string[] /* +nullable after */ };',
    '  // +kubebuilder:default=1 after the last property',
    '}',
    'export type Bar = /* +optional inside */ string;',
    "const s = '// +optional in a string';",
    '// +kubebuilder:validation:Optional at the end',
  ].join('\n');
  const files = new Map<string, string>([['/p/src/api/v1/astray.ts', astray]]);
  for (const root of ['examples', 'test/conformance/ts']) {
    for (const path of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (/(^|\/)src\/api\/.*\.ts$/.test(path)) files.set(join('/', root, path), readFileSync(join(root, path), 'utf8'));
    }
  }

  it('isTakenComment says of every comment what takenCommentRanges says', () => {
    expect(files.size).toBeGreaterThan(20);
    for (const file of parseSourceFiles(files).values()) {
      const taken = takenCommentRanges(file);
      for (const range of fileCommentRanges(file)) {
        for (const pos of [range.pos, range.pos + 2, range.end - 1]) {
          const expected = taken.some((t) => t.pos <= pos && pos < t.end);
          expect({ file: file.getFilePath(), pos, taken: isTakenComment(file, pos) }).toEqual({ file: file.getFilePath(), pos, taken: expected });
        }
      }
    }
  });
});
