import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { cleanUp, opgen } from '../scaffold/run.js';
import { copyExample } from './project.js';

// opgen scorecard against a real API server: basic-check-spec creates each alm-example (a
// server-side dry run) and reads its spec back; the OLM checks read the bundle.

let controlPlane: ControlPlane;
let dir: string;
const csvFile = 'bundle/manifests/podset.clusterserviceversion.yaml';

/** A kind whose spec declares no field, so that an empty spec is valid. */
const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.test.opgen.dev' },
  spec: {
    group: 'test.opgen.dev',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } } }],
  },
};

beforeAll(async () => {
  controlPlane = await startControlPlane();
  dir = await copyExample('podset');
  expect((await opgen(dir, 'bundle')).code).toBe(0);
  execFileSync(controlPlane.kubectlPath, ['--kubeconfig', controlPlane.kubeconfigPath, 'apply', '--server-side', '-f', join(dir, 'bundle/manifests/app.example.com_podsets.yaml')]);
  execFileSync(controlPlane.kubectlPath, ['--kubeconfig', controlPlane.kubeconfigPath, 'apply', '--server-side', '-f', '-'], { input: JSON.stringify(widgetCrd) });
  for (const crd of ['podsets.app.example.com', 'widgets.test.opgen.dev']) {
    execFileSync(controlPlane.kubectlPath, ['--kubeconfig', controlPlane.kubeconfigPath, 'wait', '--for=condition=Established', `crd/${crd}`, '--timeout=60s']);
  }
});

afterAll(async () => {
  await controlPlane?.stop();
  if (dir) await cleanUp(dir);
});

function scorecard(...args: string[]) {
  return opgen(dir, 'scorecard', '--kubeconfig', controlPlane.kubeconfigPath, ...args);
}

async function editCsv(change: (text: string) => string): Promise<string> {
  const original = await readFile(join(dir, csvFile), 'utf8');
  await writeFile(join(dir, csvFile), change(original));
  return original;
}

describe('opgen scorecard', () => {
  it('passes every check on the bundle opgen writes as it is, and says so in operator-sdk\'s JSON', async () => {
    const result = await scorecard('--output', 'json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const list = JSON.parse(result.stdout);
    expect(list.kind).toBe('TestList');
    expect(list.items.map((t: { status: { results: { name: string; state: string }[] } }) => [t.status.results[0]!.name, t.status.results[0]!.state])).toEqual([
      ['basic-check-spec', 'pass'],
      ['olm-bundle-validation', 'pass'],
      ['olm-crds-have-validation', 'pass'],
      ['olm-crds-have-resources', 'pass'],
      ['olm-spec-descriptors', 'pass'],
      ['olm-status-descriptors', 'pass'],
    ]);
    // Nothing was stored: the create was a dry run.
    const listed = execFileSync(controlPlane.kubectlPath, ['--kubeconfig', controlPlane.kubeconfigPath, 'get', 'podsets', '-A', '-o', 'name'], { encoding: 'utf8' });
    expect(listed).toBe('');
  });

  it('fails basic-check-spec when the API server rejects an example, with its reason, in JUnit XML', async () => {
    const original = await editCsv((t) => t.replace('"replicas": 3', '"replicas": -1'));
    try {
      const result = await scorecard('--output', 'xml', '--selector', 'suite=basic');
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('error: 1 of 1 scorecard checks did not pass: basic-check-spec\n');
      expect(result.stdout).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuite name="scorecard" tests="1" failures="1" errors="0">\n {2}<testcase classname="basic" name="basic-check-spec">\n {4}<failure message="creating PodSet podset-sample failed: [^"]*spec\.replicas[^"]*"/);
    } finally {
      await writeFile(join(dir, csvFile), original);
    }
  });

  it('fails basic-check-spec for an example created with an empty spec', async () => {
    const original = await readFile(join(dir, csvFile), 'utf8');
    const csv = parse(original);
    const examples = JSON.parse(csv.metadata.annotations['alm-examples']);
    examples.push({ apiVersion: 'test.opgen.dev/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} });
    csv.metadata.annotations['alm-examples'] = JSON.stringify(examples);
    await writeFile(join(dir, csvFile), stringify(csv));
    try {
      const result = await scorecard('--selector', 'basic-check-spec');
      expect(result.code).toBe(1);
      expect(result.stdout).toBe(
        'FAIL  basic-check-spec (suite: basic)\n      error: Widget w has no spec once created\n      suggestion: give the sample a spec its schema declares\nscorecard: 0 of 1 checks passed\n',
      );
    } finally {
      await writeFile(join(dir, csvFile), original);
    }
  });

  it('fails basic-check-spec for a kind the cluster does not serve, saying to install the CRDs', async () => {
    const original = await editCsv((t) => t.replace('"apiVersion": "app.example.com/v1alpha1"', '"apiVersion": "app.example.com/v1beta9"'));
    try {
      const result = await scorecard('--selector', 'test=basic-check-spec-test');
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/error: creating PodSet podset-sample failed: .*\n {6}suggestion: install the bundle's CRDs first \(opgen install\)\n/);
    } finally {
      await writeFile(join(dir, csvFile), original);
    }
  });

  it('fails the OLM checks on what they look for', async () => {
    const original = await readFile(join(dir, csvFile), 'utf8');
    const csv = parse(original);
    const [owned] = csv.spec.customresourcedefinitions.owned;
    owned.specDescriptors = [];
    delete owned.resources;
    csv.metadata.annotations['alm-examples'] = csv.metadata.annotations['alm-examples'].replace('"replicas": 3', '"replicas": 3, "paused": true');
    await writeFile(join(dir, csvFile), stringify(csv));
    try {
      const result = await scorecard('--selector', 'suite=olm');
      expect(result.code).toBe(1);
      expect(result.stdout).toContain("FAIL  olm-crds-have-validation (suite: olm)\n      error: spec.paused of PodSet podset-sample is not in the CRD's schema\n");
      expect(result.stdout).toContain('FAIL  olm-crds-have-resources (suite: olm)\n      error: owned CRD podsets.app.example.com (v1alpha1) lists no resources\n');
      expect(result.stdout).toContain('FAIL  olm-spec-descriptors (suite: olm)\n      error: replicas does not have a spec descriptor (podsets.app.example.com)\n');
      expect(result.stdout).toContain('      error: paused does not have a spec descriptor (podsets.app.example.com)\n');
      expect(result.stdout).toContain('scorecard: 2 of 5 checks passed\n');
    } finally {
      await writeFile(join(dir, csvFile), original);
    }
  });

  it('refuses a selector that selects nothing, naming the checks', async () => {
    const result = await scorecard('--selector', 'suite=advanced');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: --selector suite=advanced selects no check (checks: basic-check-spec, olm-bundle-validation, olm-crds-have-validation, olm-crds-have-resources, olm-spec-descriptors, olm-status-descriptors; suites: basic, olm)\n');
  });
});
