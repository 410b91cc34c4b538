import type { GeneratedFile } from '../../writer/index.js';
import { yamlFile } from './yaml-file.js';

const checkout = { name: 'Clone the code', uses: 'actions/checkout@v4' };
/** With the history and tags: `opgen manifests --check` compares the API with the last release (tag). */
const checkoutWithTags = { ...checkout, with: { 'fetch-depth': 0 } };
const node = { name: 'Set up Node.js', uses: 'actions/setup-node@v4', with: { 'node-version': 20, cache: 'npm' } };
const install = { name: 'Install the dependencies', run: 'npm ci' };
const on = { push: null, pull_request: null };

/**
 * The control plane the tests start (etcd, kube-apiserver, kubectl): restored from the
 * Actions cache (`~/.cache/opgen/controlplane`), else downloaded and verified by
 * `opgen setup-envtest`, as kubebuilder's Makefile runs setup-envtest. Keyed on the lock file:
 * a new @opgen/runtime (a new Kubernetes version) downloads afresh.
 */
const controlPlane = [
  {
    name: 'Cache the test control plane',
    uses: 'actions/cache@v4',
    with: {
      path: '~/.cache/opgen/controlplane',
      key: "opgen-controlplane-${{ runner.os }}-${{ runner.arch }}-${{ hashFiles('package-lock.json') }}",
      'restore-keys': 'opgen-controlplane-${{ runner.os }}-${{ runner.arch }}-',
    },
  },
];
const setupEnvtest = { name: 'Download the test control plane (verified; nothing when the cache has it)', run: 'npx opgen setup-envtest' };

/** kubebuilder's .github/workflows (lint, test, test-e2e), for an npm project. */
export function workflowFiles(): GeneratedFile[] {
  const workflow = (path: string, comment: string, name: string, steps: unknown[]): GeneratedFile => ({
    path: `.github/workflows/${path}`,
    ownership: 'user',
    content: yamlFile([comment], { name, on, jobs: { [path.replace(/\.yml$/, '')]: { name: 'Run on Ubuntu', 'runs-on': 'ubuntu-latest', steps } } }),
  });
  return [
    workflow('lint.yml', 'ESLint, the compiler, and the generated manifests up to date with the code.', 'Lint', [
      checkoutWithTags,
      node,
      install,
      { name: 'Run ESLint', run: 'npm run lint' },
      { name: 'Type-check', run: 'npx tsc --noEmit' },
      { name: 'Check that the manifests are up to date (else run npm run manifests and commit) and break nothing released', run: 'npx opgen manifests --check' },
    ]),
    workflow('test.yml', 'The controllers\' tests, against a real API server and etcd.', 'Tests', [
      checkout,
      node,
      ...controlPlane,
      install,
      setupEnvtest,
      { name: 'Run the tests', run: 'npm test' },
    ]),
    workflow('test-e2e.yml', 'The operator built and run as a process against a real API server, with the RBAC of config/.', 'E2E Tests', [
      checkout,
      node,
      ...controlPlane,
      install,
      setupEnvtest,
      { name: 'Run the end-to-end tests', run: 'npm run test:e2e' },
    ]),
  ];
}
