import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubernetesObjectApi, loadYaml, type KubernetesObject } from '@kubernetes/client-node';
import { installCRDs, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { opgen } from './run.js';

// The kubebuilder book's CronJob types: `schedule` and `jobTemplate` are required and nothing
// in their schema says what a good value is. The sample opgen writes must say which values
// are only placeholders, and the real API server must still accept it as it stands.
const cronJobProject = fileURLToPath(new URL('../conformance/ts/kubebuilder-cronjob', import.meta.url));

describe('a regenerated sample with required fields', () => {
  let cp: ControlPlane | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'opgen-sample-placeholders-'));
  afterAll(async () => {
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('marks its placeholders with TODO(user) and is created by the API server', async () => {
    cpSync(cronJobProject, dir, { recursive: true });
    const run = await opgen('manifests', '--dir', dir);
    expect(run.stderr).toBe('');
    const text = readFileSync(join(dir, 'config/samples/batch_v1_cronjob.yaml'), 'utf8');
    expect(text).toMatch(/^ {2}schedule: \S+ # TODO\(user\): placeholder for the required spec\.schedule$/m);
    expect(text).toMatch(/^ {2}# TODO\(user\): placeholder for the required spec\.jobTemplate\n {2}jobTemplate: \{\}$/m);

    cp = await startControlPlane();
    await installCRDs(cp.kubeConfig, join(dir, 'config/crd/bases'));
    const sample = loadYaml<KubernetesObject>(text);
    const created = await KubernetesObjectApi.makeApiClient(cp.kubeConfig).create({ ...sample, metadata: { ...sample.metadata, namespace: 'default' } });
    expect(created.metadata?.uid).toBeTruthy();
  });
});
