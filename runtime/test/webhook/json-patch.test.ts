import { describe, expect, it } from 'vitest';
import { jsonPatch } from '../../src/webhook/json-patch.js';
import { STASH_ANNOTATION, stash, unstash } from '../../src/webhook/stash.js';

/** Applies the operations jsonPatch emits, as the API server would. */
function apply(document: unknown, operations: ReturnType<typeof jsonPatch>): unknown {
  let root = structuredClone(document);
  for (const operation of operations) {
    const keys = operation.path.split('/').slice(1).map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (keys.length === 0) {
      root = operation.op === 'remove' ? undefined : structuredClone(operation.value);
      continue;
    }
    const parent = keys.slice(0, -1).reduce((node: any, key) => node[key], root);
    const last = keys[keys.length - 1]!;
    if (operation.op === 'remove') delete parent[last];
    else parent[last] = structuredClone(operation.value);
  }
  return root;
}

describe('the defaulting patch', () => {
  it('turns the raw object into the mutated one, touching only what changed', () => {
    const raw = { metadata: { name: 'a', annotations: { 'x/y~z': '1' } }, spec: { ports: [80], unknown: { deep: [1, { a: 2 }] }, gone: 1, same: { k: 'v' } } };
    const mutated = structuredClone(raw) as any;
    mutated.spec.ports.push(443);
    delete mutated.spec.gone;
    mutated.spec.replicas = 2;
    mutated.metadata.annotations['x/y~z'] = '2';
    const patch = jsonPatch(raw, mutated);
    expect(patch).toEqual([
      { op: 'replace', path: '/metadata/annotations/x~1y~0z', value: '2' },
      { op: 'remove', path: '/spec/gone' },
      { op: 'replace', path: '/spec/ports', value: [80, 443] },
      { op: 'add', path: '/spec/replicas', value: 2 },
    ]);
    expect(apply(raw, patch)).toEqual(mutated);
  });

  it('is empty for an unchanged object and treats a field set to undefined as removed', () => {
    const raw = { spec: { a: [1, { b: null }] } };
    expect(jsonPatch(raw, structuredClone(raw))).toEqual([]);
    expect(jsonPatch(raw, { spec: { a: raw.spec.a, c: undefined } })).toEqual([]);
    expect(jsonPatch({ spec: { a: 1 } }, { spec: { a: undefined } })).toEqual([{ op: 'remove', path: '/spec/a' }]);
  });
});

describe('the conversion stash', () => {
  it('writes nothing when nothing is lost, and restores and removes what it kept', () => {
    const spoke = { metadata: { name: 'a' }, spec: { size: 1 } };
    expect(stash(spoke, { tier: undefined })).toBe(spoke);
    const kept = stash({ ...spoke, metadata: { name: 'a', annotations: { keep: 'me' } } }, { tier: 'gold', zones: ['a', 'b'] });
    expect(kept.metadata.annotations).toEqual({ keep: 'me', [STASH_ANNOTATION]: '{"tier":"gold","zones":["a","b"]}' });
    const { object, stashed } = unstash<typeof kept, { tier: string; zones: string[] }>(kept);
    expect(stashed).toEqual({ tier: 'gold', zones: ['a', 'b'] });
    expect(object.metadata.annotations).toEqual({ keep: 'me' });
    const alone = unstash(stash(spoke, { tier: 'gold' })).object;
    expect(alone.metadata).toEqual({ name: 'a' });
  });

  it('drops a stash edited into invalid JSON instead of failing every read', () => {
    const edited = { metadata: { name: 'a', annotations: { [STASH_ANNOTATION]: '{oops' } }, spec: {} };
    expect(unstash(edited)).toEqual({ object: { metadata: { name: 'a' }, spec: {} }, stashed: {} });
  });
});
