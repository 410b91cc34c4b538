import { execFile, execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { cleanUp, opgen, projectDir, readTree } from '../scaffold/run.js';

// create api --helm-chart pulls charts from a real chart repository: the example's chart,
// packaged and indexed by helm, served over HTTP on loopback.
const chart = fileURLToPath(new URL('../../examples/charts/static-site', import.meta.url));
const helm = execFileSync('bash', [fileURLToPath(new URL('../../hack/helm/build.sh', import.meta.url)), '--print'], { encoding: 'utf8' }).trim();

let repo: string;
let server: Server;
let url: string;
let dir: string;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'opgen-chart-repo-'));
  server = createServer((request, response) => {
    const file = join(repo, basename(request.url ?? ''));
    createReadStream(file).on('error', () => response.writeHead(404).end()).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  execFileSync(helm, ['package', chart, '-d', repo]);
  execFileSync(helm, ['repo', 'index', repo, '--url', url]);
});
afterAll(async () => {
  server?.close();
  await rm(repo, { recursive: true, force: true });
});
beforeEach(async () => {
  vi.stubEnv('HELM', helm);
  // helm's repository list and cache, away from the user's.
  vi.stubEnv('HELM_REPOSITORY_CONFIG', join(repo, 'repositories.yaml'));
  vi.stubEnv('HELM_REPOSITORY_CACHE', join(repo, 'cache'));
  dir = await projectDir('static-site');
  expect((await opgen(dir, 'init', '--domain', 'example.com', '--plugins', 'helm-operator', '--skip-install')).code).toBe(0);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await cleanUp(dir);
});

async function expectChartCopied(): Promise<void> {
  const tree = await readTree(dir);
  expect(tree.get('helm-charts/static-site/values.schema.json')).toContain('"replicaCount"');
  expect(tree.get('watches.yaml')).toContain('chart: helm-charts/static-site');
  expect(tree.get('config/crd/bases/web.example.com_staticsites.yaml')).toContain('maximum: 65535');
}

it('pulls a chart by name from --helm-chart-repo, at --helm-chart-version', async () => {
  const result = await opgen(dir, 'create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', 'static-site', '--helm-chart-repo', url, '--helm-chart-version', '0.1.0');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  await expectChartCopied();
});

it('pulls repo/chart from a repository helm knows (helm repo add)', async () => {
  // Not execFileSync: the server answering helm runs in this process.
  await promisify(execFile)(helm, ['repo', 'add', 'local', url]);
  const result = await opgen(dir, 'create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', 'local/static-site');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  await expectChartCopied();
});

it('says what helm said when the chart is not in the repository, writing nothing', async () => {
  const before = await readTree(dir);
  const result = await opgen(dir, 'create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', 'static-site', '--helm-chart-repo', url, '--helm-chart-version', '9.9.9');
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^error: helm pull static-site: .*9\.9\.9/);
  expect(await readTree(dir)).toEqual(before);
});
