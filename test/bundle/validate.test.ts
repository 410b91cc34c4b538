import { execFileSync, spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen } from '../scaffold/run.js';
import { copyExample, repo } from './project.js';

// opgen bundle validate finds what operator-sdk's default validators find, each problem on
// one line at its file and line; and operator-framework's own validator (built from Go
// modules: hack/olm-validate) accepts what opgen bundle writes and rejects the same breakage.

let dir: string | undefined;
afterEach(async () => {
  if (dir) await cleanUp(dir);
  dir = undefined;
});

const olmValidate = execFileSync('bash', [join(repo, 'hack/olm-validate/build.sh'), '--print'], { encoding: 'utf8' }).trim();
const csvFile = 'bundle/manifests/podset.clusterserviceversion.yaml';

/** operator-framework/api's verdict on `<dir>/bundle`: its exit code and the errors it found. */
function olm(root: string): { code: number | null; errors: string[] } {
  const run = spawnSync(olmValidate, [join(root, 'bundle')], { encoding: 'utf8' });
  const findings = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: string; detail: string });
  return { code: run.status, errors: [...findings.filter((f) => f.level === 'Error').map((f) => f.detail), ...(run.stderr ? [run.stderr] : [])] };
}

async function bundled(name: string): Promise<string> {
  const root = await copyExample(name);
  expect((await opgen(root, 'bundle')).code).toBe(0);
  return root;
}

async function edit(path: string, change: (text: string) => string): Promise<void> {
  await writeFile(join(dir!, path), change(await readFile(join(dir!, path), 'utf8')));
}

/** `opgen bundle validate`'s error lines. */
async function errors(): Promise<string[]> {
  const result = await opgen(dir!, 'bundle', 'validate');
  expect(result.code).toBe(1);
  return result.stderr.trimEnd().split('\n').filter((line) => / error: /.test(line));
}

describe('bundles opgen writes', () => {
  it.each(['podset', 'bookstore'])('%s passes opgen bundle validate and operator-framework/api', async (name) => {
    dir = await bundled(name);
    const result = await opgen(dir, 'bundle', 'validate');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('bundle: the bundle is valid\n');
    expect(olm(dir)).toEqual({ code: 0, errors: [] });
  });
});

describe('opgen bundle validate finds', () => {
  it('an alm-example that its CRD schema rejects', async () => {
    dir = await bundled('podset');
    await edit(csvFile, (t) => t.replace('"replicas": 3', '"replicas": "three"'));
    expect(await errors()).toEqual([
      `${csvFile}:5: error: alm-examples[0] (PodSet podset-sample) is invalid: spec.replicas: must be of type integer, got string`,
    ]);
  });

  it('an alm-example of a kind the CSV does not own, as operator-framework/api does', async () => {
    dir = await bundled('podset');
    await edit(csvFile, (t) => t.replace('"kind": "PodSet"', '"kind": "PodGroup"'));
    expect(await errors()).toEqual([`${csvFile}:5: error: alm-examples[0] is a PodGroup of app.example.com/v1alpha1, which the CSV does not own`]);
    expect(olm(dir).errors.join('\n')).toMatch(/example must have a provided API/);
  });

  it('an owned CRD missing from the bundle, as operator-framework/api does', async () => {
    dir = await bundled('podset');
    await rm(join(dir, 'bundle/manifests/app.example.com_podsets.yaml'));
    const found = await errors();
    expect(found[0]).toMatch(new RegExp(`^${csvFile}:\\d+: error: owned CRD podsets\\.app\\.example\\.com is not in the bundle$`));
    expect(olm(dir).errors.join('\n')).toMatch(/owned CRD .* not found in bundle/);
  });

  it('a CRD the CSV does not own, as operator-framework/api does', async () => {
    dir = await bundled('podset');
    await edit(csvFile, (t) => t.replace('name: podsets.app.example.com', 'name: podsets.other.example.com'));
    const found = await errors();
    expect(found).toContain('bundle/manifests/app.example.com_podsets.yaml:9: error: CRD podsets.app.example.com is in the bundle but not owned by the CSV (spec.customresourcedefinitions.owned)');
    expect(olm(dir).errors.join('\n')).toMatch(/is present in bundle .* but not defined in CSV/);
  });

  it('install modes of which none is supported, as operator-framework/api does', async () => {
    dir = await bundled('podset');
    await edit(csvFile, (t) => t.replaceAll('supported: true', 'supported: false'));
    expect(await errors()).toEqual([expect.stringMatching(new RegExp(`^${csvFile}:\\d+: error: no install mode is supported: OLM could not install the operator anywhere$`))]);
    expect(olm(dir).errors.join('\n')).toMatch(/none of InstallModeTypes are supported/);
  });

  it('a CSV name that is not a DNS name, as operator-framework/api does', async () => {
    dir = await bundled('podset');
    await edit(csvFile, (t) => t.replace('name: podset.v0.1.0', 'name: PodSet_v0.1.0'));
    expect(await errors()).toEqual([expect.stringMatching(new RegExp(`^${csvFile}:\\d+: error: metadata\\.name "PodSet_v0\\.1\\.0" must be a DNS subdomain`))]);
    expect(olm(dir).errors.join('\n')).toMatch(/metadata\.name "PodSet_v0\.1\.0" is invalid/);
  });

  it('a minKubeVersion and a replaces that are not what they name, as operator-framework/api does', async () => {
    dir = await bundled('podset');
    await edit(csvFile, (t) => t.replace('  maturity: alpha\n', '  maturity: alpha\n  minKubeVersion: "1.33"\n  replaces: PodSet v0.0.9\n'));
    expect(await errors()).toEqual([
      expect.stringMatching(new RegExp(`^${csvFile}:\\d+: error: spec\\.minKubeVersion "1\\.33" is not a semantic version \\(such as 1\\.33\\.0\\)$`)),
      expect.stringMatching(new RegExp(`^${csvFile}:\\d+: error: spec\\.replaces "PodSet v0\\.0\\.9" must be the name of a CSV`)),
    ]);
    const olmErrors = olm(dir).errors.join('\n');
    expect(olmErrors).toMatch(/MinKubeVersion has an invalid value: 1\.33/);
    expect(olmErrors).toMatch(/spec\.replaces "PodSet v0\.0\.9" is invalid/);
  });

  it('an install strategy with no deployment', async () => {
    dir = await bundled('podset');
    await edit(csvFile, (t) => t.replace('strategy: deployment', 'strategy: helm'));
    expect(await errors()).toEqual([expect.stringMatching(new RegExp(`^${csvFile}:\\d+: error: spec\\.install\\.strategy must be "deployment", got "helm"$`))]);
  });

  it('annotations that do not place the bundle', async () => {
    dir = await bundled('podset');
    await edit('bundle/metadata/annotations.yaml', (t) => t.replace('registry+v1', 'plain+v0').replace('channels.v1: alpha', 'channels.v1: alpha\n  operators.operatorframework.io.bundle.channel.default.v1: stable'));
    expect(await errors()).toEqual([
      'bundle/metadata/annotations.yaml:2: error: operators.operatorframework.io.bundle.mediatype.v1 must be "registry+v1", got "plain+v0"',
      'bundle/metadata/annotations.yaml:7: error: the default channel "stable" is not one of the channels (alpha)',
    ]);
  });

  it('a file that is not YAML, at its line and column', async () => {
    dir = await bundled('podset');
    await writeFile(join(dir, 'bundle/manifests/extra.yaml'), 'kind: ConfigMap\nmetadata: {name: [x\n');
    expect(await errors()).toEqual([expect.stringMatching(/^bundle\/manifests\/extra\.yaml:\d+:\d+: error: not valid YAML: /)]);
  });

  it('a kind OLM cannot install', async () => {
    dir = await bundled('podset');
    await writeFile(join(dir, 'bundle/manifests/job.yaml'), 'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n');
    expect(await errors()).toEqual([expect.stringMatching(/^bundle\/manifests\/job\.yaml:2: error: kind Job cannot be in a registry\+v1 bundle/)]);
  });

  it('a missing bundle directory, in one line', async () => {
    dir = await copyExample('podset');
    const result = await opgen(dir, 'bundle', 'validate');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'error: bundle is not a directory: pass the bundle\'s directory (opgen bundle writes bundle/)\n' });
  });
});

describe('opgen scorecard', () => {
  it('refuses a missing bundle directory in one line, before any check', async () => {
    dir = await copyExample('podset');
    const result = await opgen(dir, 'scorecard', 'nowhere');
    expect(result).toEqual({ code: 1, stdout: '', stderr: "error: nowhere is not a directory: pass the bundle's directory (opgen bundle writes bundle/)\n" });
  });

  it('runs the OLM checks without a cluster, in JUnit XML', async () => {
    dir = await bundled('podset');
    const result = await opgen(dir, 'scorecard', '--selector', 'suite=olm', '--output', 'xml');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuite name="scorecard" tests="5" failures="0" errors="0">\n/);
    expect(result.stdout.match(/<testcase classname="olm" name="[a-z-]+">/g)).toHaveLength(5);
  });
});
