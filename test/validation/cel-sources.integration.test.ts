import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, isInvalid, kinds } from '@opgen/runtime';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opgen } from '../manifests/run.js';

// Every CEL rule the project ships (the examples, test/conformance's upstream APIs and the
// manifests fixtures) passes opgen's type and cost checks, and kube-apiserver 1.36.3
// installs the CRDs opgen writes for them. The docs show no CEL rule of their own.

const repo = fileURLToPath(new URL('../../', import.meta.url));
const projects = [
  ...readdirSync(join(repo, 'examples')).map((name) => `examples/${name}`),
  ...readdirSync(join(repo, 'test/conformance/ts')).map((name) => `test/conformance/ts/${name}`),
  ...readdirSync(join(repo, 'test/fixtures/manifests')).map((name) => `test/fixtures/manifests/${name}/input`),
].filter((dir) => existsSync(join(repo, dir, 'PROJECT')) && hasRules(join(repo, dir)));

/** Whether a project's TypeScript sources hold an XValidation marker. */
function hasRules(dir: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory() ? entry.name !== 'node_modules' && hasRules(join(dir, entry.name)) : entry.name.endsWith('.ts') && readFileSync(join(dir, entry.name), 'utf8').includes('XValidation'),
  );
}

const dirs: string[] = [];
let cp: ControlPlane;
beforeAll(async () => {
  cp = await startControlPlane();
}, 120_000);
afterAll(async () => {
  await cp?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function countRules(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, item) => n + countRules(item), 0);
  if (!node || typeof node !== 'object') return 0;
  return Object.entries(node).reduce((n, [key, value]) => n + (key === 'x-kubernetes-validations' ? (value as unknown[]).length : countRules(value)), 0);
}

describe('the CEL rules the project ships', () => {
  it('pass opgen manifests and install on kube-apiserver 1.36.3', async () => {
    const client = createClient(cp.kubeConfig);
    const installed: string[] = [];
    let rules = 0;
    for (const [index, project] of projects.entries()) {
      const dir = mkdtempSync(join(tmpdir(), 'opgen-cel-sources-'));
      dirs.push(dir);
      cpSync(join(repo, project), dir, { recursive: true, filter: (src) => !relative(join(repo, project), src).split('/').includes('node_modules') });
      const run = await opgen('manifests', '--dir', dir);
      expect({ project, stderr: run.stderr, code: run.code }).toEqual({ project, stderr: '', code: 0 });
      const bases = join(dir, 'config/crd/bases');
      if (!existsSync(bases)) continue;
      for (const file of readdirSync(bases).filter((f) => f.endsWith('.yaml'))) {
        const crd = parse(readFileSync(join(bases, file), 'utf8')) as kinds.CustomResourceDefinition;
        const count = countRules(crd.spec.versions);
        if (!count) continue;
        // One group per project: two projects may define the same Kind.
        crd.spec.group = `p${index}.${crd.spec.group}`;
        crd.metadata!.name = `${crd.spec.names.plural}.${crd.spec.group}`;
        try {
          await client.create(kinds.CustomResourceDefinition, crd);
        } catch (error) {
          throw new Error(`${project}/${file}: ${isInvalid(error) ? (error as Error).message : String(error)}`);
        }
        installed.push(`${project}/${file}`);
        rules += count;
      }
    }
    expect(projects).toEqual(expect.arrayContaining(['examples/bookstore', 'examples/echo', 'test/conformance/ts/markers']));
    expect(installed.length).toBeGreaterThanOrEqual(5);
    expect(rules).toBeGreaterThanOrEqual(10);
  }, 600_000);
});
