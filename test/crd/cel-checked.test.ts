import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { celTypeProblems } from '../../src/crd/cel-checked.js';
import type { JSONSchemaProps } from '../../src/schema/types.js';

const withRule = (rule: string): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: { size: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule }] } },
});

describe('CEL checks remembered between runs', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const notes = () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgen-cel-checked-'));
    dirs.push(dir);
    return dir;
  };

  it('notes a schema whose rules pass, once', () => {
    const dir = notes();
    expect(celTypeProblems(withRule('self.size > 0'), dir)).toEqual([]);
    expect(celTypeProblems(withRule('self.size > 0'), dir)).toEqual([]);
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('reports a schema with problems every time, and never notes it', () => {
    const dir = notes();
    for (let run = 0; run < 2; run++) {
      expect(celTypeProblems(withRule("self.size == 'big'"), dir).map((p) => p.message)).toEqual([expect.stringMatching(/no such overload/)]);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('checks a changed schema again: a rule edited into a wrong one after a passing run is refused', () => {
    const dir = notes();
    expect(celTypeProblems(withRule('self.size > 0'), dir)).toEqual([]);
    expect(celTypeProblems(withRule('self.size > "0"'), dir)).toHaveLength(1);
  });

  it('checks every time where nothing can be remembered', () => {
    expect(celTypeProblems(withRule('self.size > 0'), undefined)).toEqual([]);
    expect(celTypeProblems(withRule('self.size.startsWith("a")'), undefined)).toHaveLength(1);
  });

  // Only rules are checked: a schema without any is neither serialised nor hashed to be noted
  // (at 100 kinds with a pod template each, that was 60 MB of JSON per run).
  it('notes nothing for a schema without rules, and still finds a rule under a shared built-in type', () => {
    const dir = notes();
    const shared = Object.freeze({ type: 'object', properties: Object.freeze({ image: Object.freeze({ type: 'string' }) }) }) as JSONSchemaProps;
    expect(celTypeProblems({ type: 'object', properties: { spec: { type: 'object', properties: { template: shared } } } }, dir)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    const withRuleBeside = { type: 'object', properties: { spec: { type: 'object', properties: { template: shared, size: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: "self.size == 'big'" }] } } } as JSONSchemaProps;
    expect(celTypeProblems(withRuleBeside, dir)).toHaveLength(1);
    const inItems = { type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() > 0' }] } } } } as JSONSchemaProps;
    expect(celTypeProblems(inItems, dir)).toEqual([]);
    expect(readdirSync(dir)).toHaveLength(1);
  });
});
