import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir } from './run.js';

// What a supply-chain review of a fresh scaffold (init, create api, create webhook) looks
// for in its CI and its image, read from the files as a reviewer (or GitHub, or Docker) reads them.

let dir: string;
const read = (path: string) => readFile(join(dir, path), 'utf8');

beforeAll(async () => {
  dir = await projectDir('shop-operator');
  for (const args of [
    ['init', '--domain', 'example.com', '--skip-install'],
    ['create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget'],
    ['create', 'webhook', '--group', 'shop', '--version', 'v1', '--kind', 'Widget', '--defaulting'],
  ]) {
    const result = await opgen(dir, ...args);
    expect(result.stderr).toBe('');
  }
});
afterAll(async () => {
  if (dir) await cleanUp(dir);
});

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  permissions?: unknown;
  jobs: Record<string, { permissions?: Record<string, string>; strategy?: { matrix: { node: unknown[] } }; steps: Step[] }>;
}

async function workflows(): Promise<Map<string, { text: string; workflow: Workflow }>> {
  const names = (await readdir(join(dir, '.github/workflows'))).sort();
  const all = new Map<string, { text: string; workflow: Workflow }>();
  for (const name of names) {
    const text = await read(`.github/workflows/${name}`);
    all.set(name, { text, workflow: parse(text) as Workflow });
  }
  return all;
}

describe('the scaffolded CI', () => {
  it('grants no token permission by default and each job only read access to the code', async () => {
    const all = await workflows();
    expect([...all.keys()]).toEqual(['lint.yml', 'release.yml', 'test-e2e.yml', 'test.yml']);
    for (const [name, { workflow }] of all) {
      expect(workflow.permissions, name).toEqual({});
      for (const job of Object.values(workflow.jobs)) expect(job.permissions, name).toEqual({ contents: 'read' });
    }
  });

  it('pins every action by a full commit SHA, with its release tag in a comment on the line', async () => {
    for (const [name, { text, workflow }] of await workflows()) {
      const uses = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.uses ? [step.uses] : [])));
      expect(uses.length, name).toBeGreaterThan(0);
      for (const action of uses) {
        expect(action, name).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
        expect(text, name).toMatch(new RegExp(`uses: ${action} # v\\d+\\.\\d+\\.\\d+\\n`));
      }
    }
  });

  it('keeps no checkout credentials, runs no install script, and tests on Node.js 24 and the project\'s minimum', async () => {
    const all = await workflows();
    for (const [name, { workflow }] of all) {
      const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
      for (const checkout of steps.filter((step) => step.uses?.startsWith('actions/checkout@'))) expect(checkout.with?.['persist-credentials'], name).toBe(false);
      for (const run of steps.flatMap((step) => (step.run?.includes('npm ci') ? [step.run] : []))) expect(run, name).toContain('--ignore-scripts');
    }
    const minimum = (JSON.parse(await read('package.json')) as { engines: { node: string } }).engines.node.replace(/^>=/, '');
    expect(all.get('test.yml')!.workflow.jobs.test!.strategy!.matrix.node.map(String)).toEqual([minimum, '24']);
  });

  it('has Dependabot for the actions, npm and the image, and a release workflow with a CycloneDX SBOM', async () => {
    const dependabot = parse(await read('.github/dependabot.yml')) as { updates: { 'package-ecosystem': string }[] };
    expect(dependabot.updates.map((u) => u['package-ecosystem'])).toEqual(['github-actions', 'npm', 'docker']);
    const release = (await workflows()).get('release.yml')!.workflow;
    const runs = Object.values(release.jobs).flatMap((job) => job.steps.flatMap((step) => (step.run ? [step.run] : [])));
    expect(runs.some((run) => run.startsWith('npm sbom --sbom-format cyclonedx --omit dev'))).toBe(true);
  });
});

describe('the scaffolded image', () => {
  it('builds on Node.js and runs on distroless Node.js, every base pinned by digest with its tag on the line above', async () => {
    const lines = (await read('Dockerfile')).split('\n');
    const froms = lines.flatMap((line, i) => (line.startsWith('FROM ') ? [{ image: line.split(/\s+/)[1]!, above: lines[i - 1]! }] : []));
    expect(froms.map((f) => f.image.replace(/@sha256:[0-9a-f]{64}$/, ''))).toEqual(['node:24-bookworm-slim', 'gcr.io/distroless/nodejs24-debian12:nonroot']);
    for (const { image, above } of froms) {
      expect(image).toMatch(/@sha256:[0-9a-f]{64}$/);
      expect(above).toBe(`# ${image.replace(/@sha256:.*$/, '')}`);
    }
  });

  it('sends the build only what it lists (include-only .dockerignore), and documents npm run docker:build', async () => {
    const patterns = (await read('.dockerignore')).split('\n').filter((line) => line && !line.startsWith('#'));
    expect(patterns[0]).toBe('*');
    expect(patterns.slice(1).every((p) => p.startsWith('!'))).toBe(true);
    expect(await read('README.md')).toContain('npm run docker:build');
  });
});
