import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noReleaseNotice } from '../../src/commands/manifests-compat.js';
import { cleanUp, opgen, projectDir, readTree } from './run.js';

// `opgen manifests` as CI and `npm test` run it: --dry-run, --check with diffs, samples
// the user dropped, a remembered --max-desc-len, and samples the types outgrew.

// The projects here are not in a git repository, so --check has no release to compare with.
const noRelease = `${noReleaseNotice('not a git repository')}\n`;

let dir: string;
beforeEach(async () => {
  dir = await projectDir('shop-operator');
  expect((await opgen(dir, 'init', '--domain', 'example.com', '--skip-install')).code).toBe(0);
  expect((await opgen(dir, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'BookStore')).code).toBe(0);
});
afterEach(async () => {
  await cleanUp(dir);
});

const crd = 'config/crd/bases/shop.example.com_bookstores.yaml';
const sample = 'config/samples/shop_v1_bookstore.yaml';
const types = 'src/api/v1/bookstore_types.ts';
const read = (path: string) => readFile(join(dir, path), 'utf8');

async function ok(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const result = await opgen(dir, ...args);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

async function addRequiredReplicas(): Promise<void> {
  const text = await read(types);
  await writeFile(join(dir, types), text.replace('  foo?: string;\n', '  foo?: string;\n  /** @minimum 1 */\n  replicas: number;\n'));
}

describe('opgen manifests --dry-run', () => {
  it('prints what it would write and writes nothing', async () => {
    const before = await readTree(dir);
    const { stdout } = await ok('manifests', '--dry-run');
    expect(stdout).toMatch(new RegExp(`^CREATE ${crd}$`, 'm'));
    expect(stdout).toMatch(/^UPDATE config\/rbac\/role\.yaml$/m);
    expect(stdout).toContain('(dry run: nothing was written)');
    expect(await readTree(dir)).toEqual(before);
  });
});

describe('opgen manifests --check', () => {
  it('prints a unified diff of each stale file, names it, exits 1 and writes nothing', async () => {
    await ok('manifests');
    await addRequiredReplicas();
    await writeFile(join(dir, sample), (await read(sample)).replace('spec: {}', 'spec:\n  replicas: 2'));
    const before = await readTree(dir);

    const result = await opgen(dir, 'manifests', '--check');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`--- a/${crd}\n+++ b/${crd}\n@@ `);
    expect(result.stdout).toMatch(/^\+ {16}replicas:\n\+ {18}minimum: 1\n\+ {18}type: number$/m);
    expect(result.stderr).toBe(`error: ${crd} is stale; run opgen manifests\n`);
    expect(await readTree(dir)).toEqual(before);

    await ok('manifests');
    expect(await opgen(dir, 'manifests', '--check')).toEqual({ code: 0, stdout: `${noRelease}manifests are up to date\n`, stderr: '' });
  });

  it('shows a file it would create as a diff from /dev/null', async () => {
    const result = await opgen(dir, 'manifests', '--check');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`--- /dev/null\n+++ b/${crd}\n@@ -0,0 +1,`);
  });
});

describe('a sample the user deleted', () => {
  it('on purpose (taken out of config/samples/kustomization.yaml) is not written again nor stale', async () => {
    await ok('manifests');
    await rm(join(dir, sample));
    const kustomization = 'config/samples/kustomization.yaml';
    await writeFile(join(dir, kustomization), (await read(kustomization)).replace(/^ {2}- shop_v1_bookstore\.yaml\n/m, ''));
    expect(await read(kustomization)).not.toContain('bookstore');

    expect(await opgen(dir, 'manifests', '--check')).toEqual({ code: 0, stdout: `${noRelease}manifests are up to date\n`, stderr: '' });
    const { stdout } = await ok('manifests');
    expect(stdout).not.toContain(sample);
    expect((await readTree(dir)).has(sample)).toBe(false);
  });

  it('by accident (still listed) is stale, and written again', async () => {
    await ok('manifests');
    await rm(join(dir, sample));
    const check = await opgen(dir, 'manifests', '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(`error: ${sample} is stale; run opgen manifests\n`);
    const { stdout } = await ok('manifests');
    expect(stdout).toMatch(new RegExp(`^CREATE ${sample}$`, 'm'));
  });
});

describe('--max-desc-len', () => {
  it('is remembered in PROJECT, so a plain opgen manifests (npm test) keeps the CRDs as they are', async () => {
    const first = await ok('manifests', '--max-desc-len', '0');
    expect(first.stdout).toMatch(/^UPDATE PROJECT$/m);
    expect(await read('PROJECT')).toMatch(/^manifests:\n {2}maxDescLen: 0$/m);
    const short = await read(crd);
    expect(short).not.toContain('description:');

    expect(await opgen(dir, 'manifests')).toEqual({ code: 0, stdout: expect.stringContaining('manifests are up to date') as unknown, stderr: '' });
    expect(await read(crd)).toBe(short);
    expect((await opgen(dir, 'manifests', '--check')).code).toBe(0);

    await ok('manifests', '--max-desc-len', '40');
    expect(await read('PROJECT')).toMatch(/^manifests:\n {2}maxDescLen: 40$/m);
    expect(await read(crd)).toContain('description:');
  });
});

describe('samples and the schema', () => {
  it('create api writes a sample its CRD accepts; opgen manifests warns, located, when the types outgrow it, and --check fails', async () => {
    const first = await ok('manifests');
    expect(first.stderr).toBe('');

    await addRequiredReplicas();
    const warned = await ok('manifests');
    const message = 'spec.replicas is required: the v1 BookStore schema no longer accepts this sample (edit it, or delete it and run opgen manifests for a new one)';
    const specLine = (await read(sample)).split('\n').findIndex((line) => line.startsWith('spec:')) + 1;
    expect(warned.stderr).toBe(`${sample}:${specLine}:7: warning: ${message}\n`);
    expect(await read(crd)).toContain('replicas:');

    const check = await opgen(dir, 'manifests', '--check');
    expect(check).toEqual({ code: 1, stdout: noRelease, stderr: `${sample}:${specLine}:7: error: ${message}\n` });

    await writeFile(join(dir, sample), (await read(sample)).replace('spec: {}', 'spec:\n  replicas: 0'));
    const low = await ok('manifests');
    expect(low.stderr).toMatch(new RegExp(`^${sample}:${specLine + 1}:13: warning: spec\\.replicas must be greater than or equal to 1, got 0: `));
  });

  it('reads a sample as YAML 1.1, as kubectl does: an unquoted yes is a boolean the string field refuses, an unquoted 0o17 a string', async () => {
    await ok('manifests');
    await writeFile(join(dir, sample), (await read(sample)).replace('spec: {}', 'spec:\n  foo: yes'));
    const specLine = (await read(sample)).split('\n').findIndex((line) => line.startsWith('spec:')) + 1;
    const warned = await ok('manifests');
    expect(warned.stderr).toMatch(new RegExp(`^${sample}:${specLine + 1}:8: warning: spec\\.foo must be of type string, got boolean: `));

    await writeFile(join(dir, sample), (await read(sample)).replace('foo: yes', 'foo: 0o17'));
    expect((await ok('manifests')).stderr).toBe('');
  });
});

describe('RBAC markers the API server would accept but never honour', () => {
  const controller = 'src/controllers/bookstore_controller.ts';
  async function addMarker(marker: string): Promise<number> {
    const text = await read(controller);
    const lines = text.split('\n');
    const at = lines.findIndex((line) => line.startsWith('// +kubebuilder:rbac:')) + 1;
    lines.splice(at - 1, 0, marker);
    await writeFile(join(dir, controller), lines.join('\n'));
    return at;
  }

  it('an unknown verb is a located error, and nothing is written', async () => {
    const line = await addMarker('// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;lsit');
    const before = await readTree(dir);
    const result = await opgen(dir, 'manifests');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^${controller}:${line}:\\d+: error: \\+kubebuilder:rbac: unknown verb lsit \\(known verbs: `));
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await readTree(dir)).toEqual(before);
  });

  it('a cluster-scoped resource in a namespaced project is a located error', async () => {
    await ok('edit', '--namespaced');
    const line = await addMarker('// +kubebuilder:rbac:groups=core,resources=nodes,verbs=get;list;watch');
    const result = await opgen(dir, 'manifests');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^${controller}:${line}:\\d+: error: \\+kubebuilder:rbac: nodes is cluster-scoped: a Role \\(namespace system\\) cannot grant it \\(`),
    );
  });
});
