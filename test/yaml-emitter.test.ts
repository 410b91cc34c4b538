import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { emitPlainDocument } from '../src/yaml-emitter.js';
import { sortKeys, yamlOptions } from '../src/yaml.js';

/** The oracle: what the `yaml` library writes with opgen's options. */
const oracle = (value: unknown) => stringify(value, yamlOptions);

/** Pieces that trip YAML writers: indicators, YAML 1.1 scalars, document markers, escapes, line breaks. */
const fragments = [
  '', ' ', '  ', '\t', '\n', '\n\n', '\r', '\r\n', '#', ' #', ':', ': ', '-', '- ', '?', '? ', ',', '[', ']', '{', '}', '&', '*', '!',
  '|', '>', "'", '"', '%', '@', '`', '\\', '---', '...', '<<', '=', '~', 'y', 'Y', 'n', 'N', 'yes', 'No', 'on', 'ON', 'off', 'Off',
  'true', 'False', 'null', 'NULL', '0', '1', '07', '0755', '0o17', '0x1F', '0b101', '1_000', '12', '-', '+', '.', '1e3', '-2E-5', '.5',
  '3.14', '.inf', '-.Inf', '.nan', '1:20', '190:20:30.15', '2026-01-01', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 Z', 'T',
  'a', 'word', 'x y', 'é', 'ü', '日本', '😀', '\u0085', '\u00a0', '\u2028', '\u2029', '\u0000', '\u0007', '\u000b', '\u001b', '\u007f',
  '\u009f', '\ud800', '\udfff', '\ufeff', 'http://x', 'a: b', 'k=v', '$ref',
];

const nastyString = fc.oneof(
  { weight: 5, arbitrary: fc.array(fc.constantFrom(...fragments), { maxLength: 8 }).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: fc.constantFrom(...fragments) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 30, maxLength: 120 }) },
  // Around YAML's 1,024-character limit of an implicit key, with and without characters that need escapes.
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1000, max: 1040 }), fc.constantFrom('k', 'é', '"', '\u0007', 'a b')).map(([n, c]) => c.repeat(Math.ceil(n / c.length)).slice(0, n)) },
);

const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.maxSafeInteger(),
  fc.constantFrom(-0, 0, 1e21, -1e21, 1e-7, 2 ** 53, 2 ** 64, Number.MAX_VALUE, Number.MIN_VALUE, 0.1, 1.5, NaN, Infinity, -Infinity),
);

const scalar = fc.oneof(nastyString, number, fc.boolean(), fc.constant(null));

const { document } = fc.letrec((tie) => ({
  document: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('document'), { maxLength: 6 }),
  object: fc.dictionary(nastyString, fc.oneof(tie('document'), fc.constant(undefined)), { maxKeys: 6 }),
}));

describe('the YAML emitter', () => {
  it('writes random documents with nasty strings byte for byte as the yaml library does', () => {
    fc.assert(
      fc.property(document, (value) => {
        expect(emitPlainDocument(value)).toBe(oracle(value));
      }),
      { numRuns: 4000 },
    );
  });

  it('writes large documents byte for byte as the yaml library does', () => {
    const big = fc.array(fc.dictionary(nastyString, document, { minKeys: 20, maxKeys: 40 }), { minLength: 5, maxLength: 10 });
    fc.assert(
      fc.property(big, (value) => {
        expect(emitPlainDocument(value)).toBe(oracle(value));
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    ['a string', 'plain'],
    ['an implicit key over 1,024 characters', { ['k'.repeat(1025)]: { a: 1 } }],
    ['a top-level key that looks like a document marker', { '---a': 1, b: { '---c': 2 } }],
    ['block scalars with every chomping', { clip: 'a\n', strip: 'a', keep: 'a\n\n', lead: '  a\nb', blank: '\n', tail: 'a\n \n' }],
    ['a top-level block scalar holding a document marker', 'x\n--- y\n...'],
    ['numbers', [-0, 1e21, 5e-324, 2 ** 64, NaN, -Infinity]],
    ['empty collections and strings', { a: {}, b: [], c: '', d: [[], {}, ''] }],
    ['undefined values, left out of maps and null in sequences', { a: undefined, b: [undefined, 1] }],
  ])('writes %s as the yaml library does', (_name, value) => {
    expect(emitPlainDocument(value)).toBe(oracle(value));
  });

  it('writes reusable (frozen) subtrees at any depth, again and again, as the yaml library does', () => {
    const reusable = (value: object) => Object.isFrozen(value);
    fc.assert(
      fc.property(document, (shared) => {
        deepFreeze(shared);
        // The same subtree at several indentations, in sequences and in maps, in two documents.
        const value = { a: shared, b: [shared, { c: shared, d: [[shared]] }] };
        expect(emitPlainDocument(value, { reusable })).toBe(oracle(value));
        expect(emitPlainDocument([value], { reusable })).toBe(oracle([value]));
      }),
      { numRuns: 1000 },
    );
    const notPlain = deepFreeze({ at: new Date(0) });
    expect(emitPlainDocument({ a: notPlain }, { reusable })).toBeUndefined();
    expect(emitPlainDocument({ a: notPlain }, { reusable })).toBeUndefined();
  });

  it('sorts keys as the yaml library writes a key-sorted copy, array-index keys first', () => {
    const reusable = (value: object) => Object.isFrozen(value);
    fc.assert(
      fc.property(document, fc.dictionary(fc.constantFrom('0', '1', '7', '10', '07', '-1', '1.5', '4294967294', '4294967295', 'b', 'a'), document), (value, numeric) => {
        expect(emitPlainDocument(value, { sortKeys: true })).toBe(oracle(sortKeys(value)));
        expect(emitPlainDocument(numeric, { sortKeys: true })).toBe(oracle(sortKeys(numeric)));
        // A shared subtree is written sorted and as is, each the same every time.
        const shared = deepFreeze({ z: 1, a: [value] });
        const both = { y: shared, x: [shared] };
        expect(emitPlainDocument(both, { sortKeys: true, reusable })).toBe(oracle(sortKeys(both)));
        expect(emitPlainDocument(both, { reusable })).toBe(oracle(both));
        expect(emitPlainDocument(both, { sortKeys: true, reusable })).toBe(oracle(sortKeys(both)));
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves data that is not plain JSON to the yaml library', () => {
    for (const value of [new Date(0), { at: new Date(0) }, [new Map([['a', 1]])], 1n, { f: () => 1 }, undefined]) {
      expect(emitPlainDocument(value)).toBeUndefined();
    }
  });

  it("writes every document of the repository's YAML fixtures and examples as the yaml library does", () => {
    const files = ['test/fixtures', 'examples'].flatMap((dir) => yamlFiles(dir));
    let documents = 0;
    for (const file of files) {
      for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
        if (doc.errors.length) continue; // helm templates are not YAML until rendered
        const value: unknown = doc.toJS();
        expect(emitPlainDocument(value), file).toBe(oracle(value));
        documents++;
      }
    }
    expect(files.length).toBeGreaterThan(250);
    expect(documents).toBeGreaterThan(220);
  });
});

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.ya?ml$/.test(name) && !name.split(/[\\/]/).includes('node_modules'))
    .map((name) => join(dir, name));
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
