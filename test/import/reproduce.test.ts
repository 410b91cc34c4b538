import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen, opgenOk, projectDir, readTree } from '../scaffold/run.js';
import { fixtureScaffold } from '../upgrade/fixture-scaffold.js';
import { upgradeTo } from '../upgrade/run-upgrade.js';

// opgen upgrade and opgen alpha generate give the imported API types again, from the CRDs
// the project keeps under config/crd/external/, with no network and no cluster.

const certificates = new URL('../fixtures/corpus/cert-manager/cert-manager.io_certificates.yaml', import.meta.url).pathname;
const types = 'src/external/cert-manager.io/v1/certificate_types.ts';

let dir: string;
beforeEach(async () => {
  dir = await projectDir('issuer-operator');
  await opgenOk(dir, 'init', '--domain', 'example.com', '--skip-install');
  await opgenOk(dir, 'import', 'crd', certificates);
});
afterEach(() => cleanUp(dir));

const imported = async (root: string) => new Map([...(await readTree(root))].filter(([path]) => path.startsWith('src/external/') || path.startsWith('config/crd/external/')));

describe('imports PROJECT records', () => {
  it('are generated again by opgen upgrade', async () => {
    const before = await imported(dir);
    await writeFile(join(dir, types), '// what an older opgen wrote\n');
    const result = await upgradeTo(dir, fixtureScaffold);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^UPDATE src\/external\/cert-manager\.io\/v1\/certificate_types\.ts$/m);
    expect(await imported(dir)).toEqual(before);
  });

  it('come along with opgen alpha generate into a new folder', async () => {
    await opgenOk(dir, 'alpha', 'generate', '--output-dir', '../fresh');
    expect(await imported(join(dir, '../fresh'))).toEqual(await imported(dir));
  });

  it('need the kept CRD: without it, one line says how to import it again', async () => {
    await rm(join(dir, 'config/crd/external/certificates.cert-manager.io.yaml'));
    const result = await opgen(dir, 'alpha', 'generate', '--output-dir', '../fresh');
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd()).toBe(
      `PROJECT: error: PROJECT records the import of certificates.cert-manager.io, but config/crd/external/certificates.cert-manager.io.yaml is missing (import it again: opgen import crd ${certificates})`,
    );
    expect(await readFile(join(dir, 'PROJECT'), 'utf8')).toContain('certificates.cert-manager.io');
  });
});
