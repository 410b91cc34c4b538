import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';
import { scaffoldDemoVolume } from './project.js';

// A user's mistake ends in one line that says what and where, exit code 1, and no file of
// the chart (nor PROJECT) written.

let dir: string | undefined;
let emptyPath: string | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  if (dir) await cleanUp(dir);
  if (emptyPath) await rm(emptyPath, { recursive: true, force: true });
  dir = emptyPath = undefined;
});

async function expectFailure(args: string[], message: RegExp): Promise<void> {
  const project = dir && existsSync(join(dir, 'PROJECT')) ? await readFile(join(dir, 'PROJECT'), 'utf8') : undefined;
  const result = await opgen(dir!, ...args);
  expect(result.code).toBe(1);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(message);
  expect(existsSync(join(dir!, 'dist/chart'))).toBe(false);
  if (project !== undefined) expect(await readFile(join(dir!, 'PROJECT'), 'utf8')).toBe(project);
}

describe('opgen edit refuses', () => {
  it('an unknown plugin, naming the known ones', async () => {
    dir = await projectDir('demo-volume-operator');
    await scaffoldDemoVolume(dir);
    await expectFailure(['edit', '--plugins', 'helm,olm'], /^error: unknown plugin "olm" \(known plugins: helm, grafana, multicluster\)$/m);
  });

  it('to run with nothing to edit', async () => {
    dir = await projectDir('demo-volume-operator');
    await scaffoldDemoVolume(dir);
    await expectFailure(['edit'], /^error: nothing to edit \(pass --plugins, --multigroup, --namespaced or --webhook-certificates; see opgen edit --help\)\n$/);
  });

  it('outside a project', async () => {
    dir = await projectDir('not-a-project');
    await expectFailure(['edit', '--plugins', 'helm'], /no PROJECT file in .*not an opgen project/);
  });

  it('a config/default that kustomize cannot build, with the file and kustomize\'s reason', async () => {
    dir = await projectDir('demo-volume-operator');
    await scaffoldDemoVolume(dir);
    const kustomization = join(dir, 'config/default/kustomization.yaml');
    await writeFile(kustomization, (await readFile(kustomization, 'utf8')).replace('- ../manager', '- ../managr'));
    await expectFailure(
      ['edit', '--plugins', 'helm'],
      /^config\/default\/kustomization\.yaml: error: kubectl kustomize config\/default failed: .*managr/,
    );
  });

  it('a config/default without the manager', async () => {
    dir = await projectDir('demo-volume-operator');
    await scaffoldDemoVolume(dir);
    const kustomization = join(dir, 'config/default/kustomization.yaml');
    const config = parse(await readFile(kustomization, 'utf8')) as { resources: string[] };
    await writeFile(kustomization, stringify({ ...config, resources: config.resources.filter((r) => r !== '../manager') }));
    await expectFailure(['edit', '--plugins', 'helm'], /config\/default builds no Deployment with a container named "manager"/);
  });

  it('to go on without kubectl, saying what it needs it for', async () => {
    dir = await projectDir('demo-volume-operator');
    await scaffoldDemoVolume(dir);
    emptyPath = await mkdtemp(join(tmpdir(), 'opgen-no-kubectl-'));
    vi.stubEnv('PATH', emptyPath);
    await expectFailure(['edit', '--plugins', 'helm'], /^error: kubectl not found: .*kubectl kustomize.*\(install kubectl/);
  });

});
