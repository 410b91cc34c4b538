import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { packedProject } from './packed-project.js';

// A project whose webhooks switched certificate mode (`opgen edit --webhook-certificates`)
// still builds, type-checks and lints, its own `npm run manifests` runs, and kustomize builds
// the deployable config/default of the new mode. The packages are installed as npm would
// publish them. Needs `npm run build` first and kubectl; no control plane.

const project = packedProject('shop-operator');
const { run, inProject } = project;

async function buildsTypeChecksLintsAndGenerates(): Promise<void> {
  await rm(join(project.dir, 'dist'), { recursive: true, force: true });
  for (const [command, args] of [['npm', ['run', 'build']], ['npx', ['tsc', '--noEmit']], ['npm', ['run', 'lint']], ['npm', ['run', 'manifests']]] as const) {
    const result = await inProject(command, [...args]);
    expect(result.exitCode, `${command} ${args.join(' ')}\n${result.all}`).toBe(0);
  }
  expect(existsSync(join(project.dir, 'dist/main.js'))).toBe(true);
}

/** The kinds and names `kubectl kustomize config/default` builds. */
async function deployed(): Promise<string[]> {
  const result = await inProject('kubectl', ['kustomize', 'config/default']);
  expect(result.exitCode, result.all).toBe(0);
  return parseAllDocuments(result.stdout).map((d) => {
    const o = d.toJSON() as { kind: string; metadata: { name: string } };
    return `${o.kind}/${o.metadata.name}`;
  });
}

const widget = (version: string) => ['--group', 'shop', '--version', version, '--kind', 'Widget'];

describe('a project after edit --webhook-certificates', () => {
  it(
    'builds, type-checks, lints and generates its manifests in each mode, and deploys that mode',
    async () => {
      await project.init('example.com');
      await run('create', 'api', ...widget('v1'));
      await run('create', 'api', ...widget('v2'), '--no-controller');
      await run('create', 'webhook', ...widget('v2'), '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1');
      const install = await inProject('npm', ['install', '--no-audit', '--no-fund']);
      expect(install.exitCode, install.all).toBe(0);

      await run('edit', '--webhook-certificates', 'cert-manager');
      await buildsTypeChecksLintsAndGenerates();
      const certManager = await deployed();
      expect(certManager).toEqual(expect.arrayContaining(['Issuer/shop-operator-selfsigned-issuer', 'Certificate/shop-operator-serving-cert']));
      expect(certManager.filter((o) => o.includes('webhook-certs'))).toEqual([]);

      await run('edit', '--webhook-certificates', 'built-in');
      await buildsTypeChecksLintsAndGenerates();
      const builtIn = await deployed();
      expect(builtIn).toEqual(expect.arrayContaining(['Role/shop-operator-webhook-certs-role', 'ClusterRole/shop-operator-webhook-certs-role']));
      expect(builtIn.filter((o) => o.startsWith('Issuer/') || o.startsWith('Certificate/'))).toEqual([]);
    },
    15 * 60_000,
  );
});
