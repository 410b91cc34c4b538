import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, isInvalid, kinds } from '@opgen/runtime';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { opgen } from '../manifests/run.js';
import { acceptedRules, type CorpusRule, refusedRules } from './cel-corpus.js';

// CEL rules type-checked and costed by `opgen manifests` against the schema, proven against the real
// kube-apiserver: every rule of the corpus that opgen refuses (with an error at its marker)
// is refused by the API server at CRD install, and every rule opgen lets through it accepts.

const dirs: string[] = [];
let cp: ControlPlane;
beforeAll(async () => {
  cp = await startControlPlane();
}, 120_000);
afterAll(async () => {
  await cp?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function marker(rule: CorpusRule): string {
  const extra = `${rule.messageExpression !== undefined ? `,messageExpression="${rule.messageExpression}"` : ''}${rule.optionalOldSelf ? ',optionalOldSelf=true' : ''}${rule.fieldPath !== undefined ? `,fieldPath="${rule.fieldPath}"` : ''}`;
  return ` * +kubebuilder:validation:XValidation:rule="${rule.rule}"${extra}`;
}

function kindFile(i: number, rule: CorpusRule): string {
  const on = rule.on ?? 'spec';
  return `import { defineKind, type IntOrString, type ObjectMeta, type Time, type int32 } from '@opgen/runtime/api';
import { groupVersion } from './groupversion_info.js';

/** A port. */
export interface Port${i} {
  name: string;
  port: int32;
}

/**
 * An item.
${on === 'item' ? marker(rule) : ' *'}
 */
export interface Item${i} {
  name: string;
  weight?: int32;
}

/**
 * The spec.
${on === 'spec' ? marker(rule) : ' *'}
 */
export interface Spec${i} {
  name: string;
  replicas?: int32;
  tags?: string[];
  /**
   * ports by name.
   * +listType=map
   * +listMapKey=name
   */
  ports?: Port${i}[];
  labels?: Record<string, string>;
  created?: Time;
  size?: IntOrString;
  ratio?: number;
  enabled?: boolean;
  items?: Item${i}[];
}

/**
 * Thing${i}.
 * +kubebuilder:object:root=true
 */
export interface Thing${i} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: Spec${i};
}

export const Thing${i} = defineKind<Thing${i}>({ ...groupVersion, kind: 'Thing${i}', plural: 'thing${i}s', namespaced: true });
`;
}

/** A project with one Kind per rule; returns its directory. */
function project(rules: CorpusRule[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'opgen-cel-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'src/api/v1'), { recursive: true });
  writeFileSync(join(dir, 'PROJECT'), 'version: "3"\nlayout:\n  - typescript.opgen.dev/v1\ndomain: example.com\nprojectName: cel\nresources: []\n');
  writeFileSync(join(dir, 'src/api/v1/groupversion_info.ts'), "/**\n * +groupName=cel.example.com\n */\nexport const groupVersion = { group: 'cel.example.com', version: 'v1' } as const;\n");
  rules.forEach((rule, i) => writeFileSync(join(dir, `src/api/v1/thing${i}_types.ts`), kindFile(i, rule)));
  return dir;
}

/** What kube-apiserver answers to each rule, installed on the CRD opgen writes for the project (with the rule put back). */
async function apiServerRefuses(rules: CorpusRule[], offset: number): Promise<(string | false)[]> {
  const dir = project(rules.map((r) => ({ ...r, rule: 'true', messageExpression: undefined, optionalOldSelf: undefined, fieldPath: undefined })));
  const generated = await opgen('manifests', '--dir', dir);
  expect(generated.stderr).toBe('');
  const client = createClient(cp.kubeConfig);
  return Promise.all(
    rules.map(async (rule, i) => {
      const crd = parse(readFileSync(join(dir, `config/crd/bases/cel.example.com_thing${i}s.yaml`), 'utf8')) as kinds.CustomResourceDefinition;
      crd.metadata!.name = `thing${offset + i}s.cel.example.com`;
      crd.spec.names = { ...crd.spec.names, plural: `thing${offset + i}s`, kind: `Thing${offset + i}`, listKind: `Thing${offset + i}List`, singular: `thing${offset + i}` };
      const spec = crd.spec.versions[0]!.schema!.openAPIV3Schema!.properties!.spec!;
      const node = (rule.on ?? 'spec') === 'spec' ? spec : spec.properties!.items!.items!;
      const validation = {
        rule: rule.rule,
        ...(rule.messageExpression !== undefined ? { messageExpression: rule.messageExpression } : {}),
        ...(rule.optionalOldSelf ? { optionalOldSelf: true } : {}),
        ...(rule.fieldPath !== undefined ? { fieldPath: rule.fieldPath } : {}),
      };
      (node as { 'x-kubernetes-validations'?: unknown[] })['x-kubernetes-validations'] = [validation];
      try {
        await client.create(kinds.CustomResourceDefinition, crd);
        return false;
      } catch (error) {
        if (!isInvalid(error)) throw error;
        return (error as Error).message;
      }
    }),
  );
}

describe('CEL rules type-checked against the schema, as kube-apiserver 1.36.3 compiles them', () => {
  it(`refuses each of ${refusedRules.length} rules the API server refuses, located at its marker`, async () => {
    expect(refusedRules.length).toBeGreaterThanOrEqual(40);
    const dir = project(refusedRules);
    const run = await opgen('manifests', '--dir', dir);
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter(Boolean);
    const missed: string[] = [];
    refusedRules.forEach((rule, i) => {
      const file = `src/api/v1/thing${i}_types.ts`;
      const markerLine = readFileSync(join(dir, file), 'utf8').split('\n').findIndex((l) => l.includes('XValidation')) + 1;
      const found = lines.find((l) => l.startsWith(`${file}:${markerLine}:`) && l.includes(': error: ') && l.includes('invalid CEL'));
      if (!found) missed.push(`${rule.rule} ${rule.messageExpression ?? ''} ${rule.fieldPath ?? ''}`);
    });
    expect(missed).toEqual([]);
    expect(lines).toHaveLength(refusedRules.length);

    const refused = await apiServerRefuses(refusedRules, 0);
    expect(refusedRules.filter((_, i) => !refused[i]).map((r) => `${r.rule} ${r.messageExpression ?? ''} ${r.fieldPath ?? ''}`)).toEqual([]);
  }, 180_000);

  it(`lets through each of ${acceptedRules.length} rules the API server accepts`, async () => {
    const dir = project(acceptedRules);
    const run = await opgen('manifests', '--dir', dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const refused = await apiServerRefuses(acceptedRules, 1000);
    expect(acceptedRules.flatMap((r, i) => (refused[i] ? [`${r.rule}: ${refused[i]}`] : []))).toEqual([]);
  }, 180_000);
});
