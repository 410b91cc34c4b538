import { execFileSync } from 'node:child_process';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanUp, opgen, projectDir, readTree } from '../scaffold/run.js';

// The golden tree is what init --plugins helm-operator + create api --helm-chart write, byte for
// byte. After an intended change, regenerate it with
//   UPDATE_GOLDEN=1 npx vitest run test/helm-operator/scaffold.test.ts
const golden = fileURLToPath(new URL('../fixtures/scaffold/helm-operator', import.meta.url));
const chart = fileURLToPath(new URL('../../examples/charts/static-site', import.meta.url));
const helm = execFileSync('bash', [fileURLToPath(new URL('../../hack/helm/build.sh', import.meta.url)), '--print'], { encoding: 'utf8' }).trim();

let dir: string;
beforeEach(() => {
  vi.stubEnv('SOURCE_DATE_EPOCH', '1767225600');
  vi.stubEnv('HELM', helm);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  if (dir) await cleanUp(dir);
});

async function ok(...args: string[]): Promise<void> {
  const result = await opgen(dir, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

async function helmProject(): Promise<void> {
  dir = await projectDir('static-site');
  await ok('init', '--domain', 'example.com', '--plugins', 'helm-operator', '--skip-install');
}

/** A copy of the example's chart with `schema` as its values.schema.json. */
async function chartWithSchema(schema: string): Promise<string> {
  const copy = join(dir, '..', 'chart');
  await cp(chart, copy, { recursive: true });
  await writeFile(join(copy, 'values.schema.json'), schema);
  return copy;
}

describe('a chart-backed project', () => {
  it('is scaffolded by init --plugins helm-operator and create api --helm-chart as the golden tree', async () => {
    await helmProject();
    await ok('create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', chart);
    if (process.env.UPDATE_GOLDEN) {
      await rm(golden, { recursive: true, force: true });
      await cp(dir, golden, { recursive: true });
    }
    const actual = await readTree(dir);
    const expected = await readTree(golden);
    expect([...actual.keys()]).toEqual([...expected.keys()]);
    for (const [path, content] of expected) expect(actual.get(path), path).toBe(content);
  });

  it('gets a structural spec schema from values.schema.json, and preserve-unknown-fields without one', async () => {
    await helmProject();
    await ok('create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', chart);
    const crd = (await readTree(dir)).get('config/crd/bases/web.example.com_staticsites.yaml')!;
    expect(crd).toContain('replicaCount:\n                  description: Pods serving the page.\n                  type: integer\n                  minimum: 0');
    const bare = join(dir, '..', 'bare');
    await cp(chart, bare, { recursive: true });
    await rm(join(bare, 'values.schema.json'));
    await mkdir(join(bare, 'templates'), { recursive: true });
    await ok('create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'Page', '--helm-chart', bare);
    const tree = await readTree(dir);
    expect(tree.get('config/crd/bases/web.example.com_pages.yaml')).toContain('spec:\n              type: object\n              description: The values of the static-site chart.\n              x-kubernetes-preserve-unknown-fields: true');
    expect(tree.get('watches.yaml')).toContain('kind: StaticSite');
    expect(tree.get('watches.yaml')).toContain('kind: Page');
  });

  it('gives the manager rights over what the chart renders, also behind conditions its default values leave off', async () => {
    await helmProject();
    const webapp = fileURLToPath(new URL('../../runtime/test/fixtures/helm/webapp', import.meta.url));
    await ok('create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'Webapp', '--helm-chart', webapp);
    const role = (await readTree(dir)).get('config/rbac/role.yaml')!;
    // service.yaml is behind service.enabled (false by default); the test hook Pod is never installed.
    expect(role).toContain('resources:\n      - configmaps\n      - services\n');
    expect(role).not.toContain('pods');
  });

  it('refuses a values.schema.json keyword a structural schema cannot say, at its line and column, writing nothing', async () => {
    await helmProject();
    const before = await readTree(dir);
    const bad = await chartWithSchema('{\n  "type": "object",\n  "properties": {\n    "port": {\n      "type": "integer",\n      "if": { "minimum": 1 }\n    }\n  }\n}\n');
    const result = await opgen(dir, 'create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', bad);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`${bad}/values.schema.json:6:7: error: keyword if cannot become a structural schema (a CRD has no equivalent)`);
    expect(await readTree(dir)).toEqual(before);
  });

  it.each([
    ['a tuple', '{"type":"object","properties":{"pair":{"type":"array","items":[{"type":"string"}]}}}', 'items as a list (a tuple) cannot become a structural schema'],
    ['a recursive $ref', '{"type":"object","definitions":{"node":{"type":"object","properties":{"next":{"$ref":"#/definitions/node"}}}},"properties":{"head":{"$ref":"#/definitions/node"}}}', '$ref #/definitions/node is recursive'],
    ['two types', '{"type":"object","properties":{"size":{"type":["string","boolean"]}}}', 'type ["string","boolean"] cannot become a structural schema'],
    ['a type inside anyOf', '{"type":"object","properties":{"size":{"anyOf":[{"type":"string"},{"type":"boolean"}]}}}', 'keyword type inside anyOf cannot become a structural schema'],
  ])('refuses %s with a located error', async (_, schema, message) => {
    await helmProject();
    const bad = await chartWithSchema(schema);
    const result = await opgen(dir, 'create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', bad);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^${bad.replaceAll('/', '\\/')}/values\\.schema\\.json:1:\\d+: error: `));
    expect(result.stderr).toContain(message);
  });

  it('maps what has a structural equivalent: const, nullable types, $ref, int-or-string', async () => {
    await helmProject();
    const schema = {
      type: 'object',
      $defs: { port: { type: 'integer', minimum: 1 } },
      properties: {
        mode: { const: 'fast' },
        note: { type: ['string', 'null'] },
        port: { $ref: '#/$defs/port' },
        target: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        anything: { description: 'any value' },
      },
    };
    const good = await chartWithSchema(JSON.stringify(schema));
    await ok('create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', good);
    const crd = (await readTree(dir)).get('config/crd/bases/web.example.com_staticsites.yaml')!;
    for (const piece of [
      'mode:\n                  enum:\n                    - fast',
      'note:\n                  type: string\n                  nullable: true',
      'port:\n                  type: integer\n                  minimum: 1',
      'target:\n                  x-kubernetes-int-or-string: true',
      'anything:\n                  description: any value\n                  x-kubernetes-preserve-unknown-fields: true',
    ]) {
      expect(crd).toContain(piece);
    }
  });

  it('refuses an unknown plugin, --helm-chart in a TypeScript project, and a chart that does not render', async () => {
    dir = await projectDir('plain');
    const unknown = await opgen(dir, 'init', '--domain', 'example.com', '--plugins', 'ansible-operator', '--skip-install');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--plugins ansible-operator: unknown plugin ansible-operator');
    await ok('init', '--domain', 'example.com', '--skip-install');
    const plain = await opgen(dir, 'create', 'api', '--group', 'web', '--version', 'v1', '--kind', 'Site', '--helm-chart', chart);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('PROJECT: error: --helm-chart: this project reconciles with TypeScript controllers');
    const repoOnly = await opgen(dir, 'create', 'api', '--group', 'web', '--version', 'v1', '--kind', 'Site', '--helm-chart-repo', 'http://127.0.0.1:1');
    expect(repoOnly.stderr).toContain('this project reconciles with TypeScript controllers');

    await cleanUp(dir);
    await helmProject();
    const before = await readTree(dir);
    const broken = join(dir, '..', 'broken');
    await cp(chart, broken, { recursive: true });
    await writeFile(join(broken, 'templates', 'oops.yaml'), '{{ fail "this chart is broken" }}\n');
    const failed = await opgen(dir, 'create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', broken);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('does not render with its default values');
    expect(failed.stderr).toContain('this chart is broken');
    const controller = await opgen(dir, 'create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', chart, '--no-controller');
    expect(controller.code).toBe(1);
    expect(controller.stderr).toContain('--controller: a chart-backed kind has no TypeScript types or controller');
    expect(await readTree(dir)).toEqual(before);
  });

  it('refuses opgen manifests and delete api, which would empty the CRDs and role the charts gave', async () => {
    await helmProject();
    await ok('create', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite', '--helm-chart', chart);
    const before = await readTree(dir);
    for (const args of [['manifests'], ['delete', 'api', '--group', 'web', '--version', 'v1alpha1', '--kind', 'StaticSite']]) {
      const result = await opgen(dir, ...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`PROJECT: error: opgen ${args[0]}`);
      expect(result.stderr).toContain('this project is backed by Helm charts');
    }
    expect(await readTree(dir)).toEqual(before);
  });
});
