import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parsedOnce } from '../../src/compat/parsed-cache.js';

const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.shop.example.com\nspec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        properties:\n          size: {type: integer, maximum: 10, default: 3}\n';

describe('the released CRDs are parsed once per content', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgen-parsed-cache-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** parse, counting its calls. */
  function counting() {
    const counter = { calls: 0, parse: (text: string) => (counter.calls++, parse(text) as unknown) };
    return counter;
  }

  it('reads a file parsed before from the cache, equal to parsing it', () => {
    const dir = scratch();
    const yaml = counting();
    const first = parsedOnce(crd, yaml.parse, dir);
    const again = parsedOnce(crd, yaml.parse, dir);
    expect(yaml.calls).toBe(1);
    expect(again).toEqual(first);
    expect(again).toEqual(parse(crd));
  });

  it('parses an edited file again', () => {
    const dir = scratch();
    const yaml = counting();
    parsedOnce(crd, yaml.parse, dir);
    const edited = parsedOnce(crd.replace('maximum: 10', 'maximum: 5'), yaml.parse, dir) as { spec: { versions: Array<{ schema: { openAPIV3Schema: { properties: { size: { maximum: number } } } } }> } };
    expect(yaml.calls).toBe(2);
    expect(edited.spec.versions[0]!.schema.openAPIV3Schema.properties.size.maximum).toBe(5);
  });

  it('parses again over a truncated entry, and repairs it', () => {
    const dir = scratch();
    const yaml = counting();
    parsedOnce(crd, yaml.parse, dir);
    const [entry] = readdirSync(dir);
    writeFileSync(join(dir, entry!), '{"apiVersion": "apiext');
    expect(parsedOnce(crd, yaml.parse, dir)).toEqual(parse(crd));
    expect(parsedOnce(crd, yaml.parse, dir)).toEqual(parse(crd));
    expect(yaml.calls).toBe(2);
  });

  it('still answers when the cache cannot be written', () => {
    const blocked = join(scratch(), 'a-file');
    writeFileSync(blocked, '');
    const yaml = counting();
    expect(parsedOnce(crd, yaml.parse, join(blocked, 'compat'))).toEqual(parse(crd));
    expect(parsedOnce(crd, yaml.parse, join(blocked, 'compat'))).toEqual(parse(crd));
    expect(yaml.calls).toBe(2);
  });

  it('keeps no failed parse: a file that is not YAML fails every time', () => {
    const dir = scratch();
    const refuse = () => {
      throw new Error('not YAML');
    };
    expect(() => parsedOnce('key: [unclosed', refuse, dir)).toThrow('not YAML');
    expect(() => parsedOnce('key: [unclosed', refuse, dir)).toThrow('not YAML');
    expect(readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile())).toEqual([]);
  });
});
