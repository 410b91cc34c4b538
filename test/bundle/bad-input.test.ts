import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen } from '../scaffold/run.js';
import { copyExample } from './project.js';

// What is missing or wrong is said, each on its own line and located, exit 1, nothing written.

let dir: string | undefined;
afterEach(async () => {
  if (dir) await cleanUp(dir);
  dir = undefined;
});

async function edit(path: string, change: (text: string) => string): Promise<void> {
  await writeFile(join(dir!, path), change(await readFile(join(dir!, path), 'utf8')));
}

async function expectRefused(args: string[], lines: RegExp[]): Promise<void> {
  const result = await opgen(dir!, 'bundle', ...args);
  expect(result.code).toBe(1);
  const printed = result.stderr.trimEnd().split('\n');
  expect(printed).toHaveLength(lines.length);
  lines.forEach((line, i) => expect(printed[i]).toMatch(line));
  expect(existsSync(join(dir!, 'bundle'))).toBe(false);
  expect(existsSync(join(dir!, 'bundle.Dockerfile'))).toBe(false);
}

describe('opgen bundle refuses', () => {
  it('kinds without a sample or a description, naming each', async () => {
    dir = await copyExample('bookstore');
    await edit('config/samples/kustomization.yaml', (t) => t.replace(/^ {2}- .*bookstore.*\n/m, ''));
    await edit('config/crd/bases/blog.example.com_bookstores.yaml', (t) => t.replace(/^ {10}description: BookStore runs.*\n/m, ''));
    await expectRefused(
      [],
      [
        /^config\/samples\/kustomization\.yaml: error: no sample of BookStore \(blog\.example\.com\/v1alpha1\) for the CSV's alm-examples \(add one to config\/samples and list it there\)$/,
        /^src\/api\/v1alpha1: error: BookStore \(v1alpha1\) has no description for the CSV \(write a doc comment above class BookStore and run opgen manifests, or set it under spec\.customresourcedefinitions\.owned in config\/manifests\/bases\/bookstore\.clusterserviceversion\.yaml\)$/,
      ],
    );
  });

  it('an operator without a description', async () => {
    dir = await copyExample('podset');
    await edit('package.json', (t) => t.replace(/^ {2}"description": .*\n/m, ''));
    await expectRefused([], [/^package\.json: error: the operator has no description for the CSV \(set "description" in package\.json, or write config\/manifests\/bases\/podset\.clusterserviceversion\.yaml\)$/]);
  });

  it('a base CSV that is not YAML, at its line and column', async () => {
    dir = await copyExample('podset');
    expect((await opgen(dir, 'bundle')).code).toBe(0);
    await cleanBundle();
    await edit('config/manifests/bases/podset.clusterserviceversion.yaml', (t) => t.replace('maturity: alpha', 'maturity: [alpha'));
    await expectRefused([], [/^config\/manifests\/bases\/podset\.clusterserviceversion\.yaml:\d+:\d+: error: not valid YAML: /]);
  });

  it('a base CSV of the wrong shape, each problem at its line', async () => {
    dir = await copyExample('podset');
    expect((await opgen(dir, 'bundle')).code).toBe(0);
    await cleanBundle();
    await edit('config/manifests/bases/podset.clusterserviceversion.yaml', (t) =>
      t.replace('kind: ClusterServiceVersion', 'kind: Deployment').replace('type: MultiNamespace', 'type: SomeNamespaces'),
    );
    await expectRefused(
      [],
      [
        /^config\/manifests\/bases\/podset\.clusterserviceversion\.yaml:2: error: kind must be ClusterServiceVersion, got "Deployment"$/,
        /^config\/manifests\/bases\/podset\.clusterserviceversion\.yaml:20: error: spec\.installModes\[2\]\.type must be one of OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces$/,
      ],
    );
  });

  it('a version that is not semver, and a default channel that is not a channel', async () => {
    dir = await copyExample('podset');
    await expectRefused(['--version', 'v1'], [/^error: version "v1" is not a semantic version \(such as 0\.1\.0\)$/]);
    await expectRefused(['--channels', 'alpha', '--default-channel', 'stable'], [/^error: --default-channel stable is not one of the channels \(alpha\)$/]);
  });

  it('an object OLM cannot install, naming it', async () => {
    dir = await copyExample('podset');
    await writeFile(join(dir, 'config/default/job.yaml'), 'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: m, image: busybox}]\n');
    await edit('config/default/kustomization.yaml', (t) => t.replace('  - metrics_service.yaml\n', '  - metrics_service.yaml\n  - job.yaml\n'));
    await expectRefused([], [/^error: config\/default renders Job podset-system\/podset-migrate, which an OLM registry\+v1 bundle cannot carry/]);
  });
});

/** The first run wrote a bundle only to get a base CSV to break: remove it again. */
async function cleanBundle(): Promise<void> {
  const { rm } = await import('node:fs/promises');
  await rm(join(dir!, 'bundle'), { recursive: true });
  await rm(join(dir!, 'bundle.Dockerfile'));
}
