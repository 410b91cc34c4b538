import type { GeneratedFile } from '../../writer/index.js';
import { toYaml, toYamlWithComments, type YamlComment } from '../../yaml.js';
import { pinnedActions, usesOf, type PinnedAction } from './actions.js';
import { nodeVersions } from './node-versions.js';

interface Step {
  name: string;
  uses?: PinnedAction;
  with?: Record<string, unknown>;
  run?: string;
}

/**
 * The checkout keeps no token in .git/config (`persist-credentials: false`): nothing a later
 * step runs (a dependency's script, a test) can read it or push with it.
 */
const checkout: Step = { name: 'Clone the code', uses: pinnedActions.checkout, with: { 'persist-credentials': false } };
/** With the history and tags: `opgen manifests --check` compares the API with the last release (tag). */
const checkoutWithTags: Step = { ...checkout, with: { ...checkout.with, 'fetch-depth': 0 } };
const node = (version: string | number): Step => ({ name: 'Set up Node.js', uses: pinnedActions.setupNode, with: { 'node-version': version, cache: 'npm' } });
/** No dependency's install script runs in CI: the tools here need none (esbuild's is a check its platform package makes redundant). */
const install: Step = { name: 'Install the dependencies', run: 'npm ci --ignore-scripts' };
const on = { push: null, pull_request: null };

/**
 * The control plane the tests start (etcd, kube-apiserver, kubectl): restored from the
 * Actions cache (`~/.cache/opgen/controlplane`), else downloaded and verified by
 * `opgen setup-envtest`, as kubebuilder's Makefile runs setup-envtest. Keyed on the lock file:
 * a new @opgen/runtime (a new Kubernetes version) downloads afresh.
 */
const controlPlane: Step = {
  name: 'Cache the test control plane',
  uses: pinnedActions.cache,
  with: {
    path: '~/.cache/opgen/controlplane',
    key: "opgen-controlplane-${{ runner.os }}-${{ runner.arch }}-${{ hashFiles('package-lock.json') }}",
    'restore-keys': 'opgen-controlplane-${{ runner.os }}-${{ runner.arch }}-',
  },
};
const setupEnvtest: Step = { name: 'Download the test control plane (verified; nothing when the cache has it)', run: 'npx opgen setup-envtest' };

/** Reading the code is all a job here needs of the repository token; the workflow grants nothing by default. */
const readOnly = { contents: 'read' };

interface Job {
  name: string;
  steps: Step[];
  matrix?: (string | number)[];
}

/**
 * A workflow as YAML: `permissions: {}` at the top (no job gets the token's default
 * write access), each job's own least permissions, and every action as `owner/name@<sha>`
 * with its tag in a comment on the line.
 */
function workflow(path: string, comment: string, name: string, triggers: unknown, jobs: Record<string, Job>): GeneratedFile {
  const comments: YamlComment[] = [];
  const rendered = Object.fromEntries(
    Object.entries(jobs).map(([id, job]) => {
      const steps = job.steps.map((step, index) => {
        if (!step.uses) return step;
        comments.push({ path: ['jobs', id, 'steps', index, 'uses'], text: step.uses.tag });
        return { ...step, uses: usesOf(step.uses) };
      });
      const strategy = job.matrix ? { strategy: { matrix: { node: job.matrix } } } : {};
      return [id, { name: job.name, 'runs-on': 'ubuntu-latest', permissions: readOnly, ...strategy, steps }];
    }),
  );
  const content = `# ${comment}\n${toYamlWithComments({ name, on: triggers, permissions: {}, jobs: rendered }, comments)}`;
  return { path: `.github/workflows/${path}`, ownership: 'user', content };
}

/** The tests' Node.js legs: the oldest the project supports and the image's LTS line. */
const testedNode = [nodeVersions.minimum, nodeVersions.image];

/**
 * kubebuilder's .github/workflows (lint, test, test-e2e), for an npm project, hardened as
 * kubebuilder's are (no default token permissions, actions pinned by commit, no persisted
 * credentials), a release workflow that attaches the production dependencies' CycloneDX
 * SBOM, and Dependabot keeping the pins, the npm dependencies and the image digests current.
 */
export function workflowFiles(): GeneratedFile[] {
  return [
    workflow('lint.yml', 'ESLint, the compiler, and the generated manifests up to date with the code.', 'Lint', on, {
      lint: {
        name: 'Run on Ubuntu',
        steps: [
          checkoutWithTags,
          node(nodeVersions.image),
          install,
          { name: 'Run ESLint', run: 'npm run lint' },
          { name: 'Type-check', run: 'npx tsc --noEmit' },
          { name: 'Check that the manifests are up to date (else run npm run manifests and commit) and break nothing released', run: 'npx opgen manifests --check' },
        ],
      },
    }),
    workflow('test.yml', 'The controllers\' tests, against a real API server and etcd, on the oldest Node.js the project supports and the LTS its image runs.', 'Tests', on, {
      test: {
        name: 'Run on Ubuntu (Node.js ${{ matrix.node }})',
        matrix: testedNode,
        steps: [checkout, node('${{ matrix.node }}'), controlPlane, install, setupEnvtest, { name: 'Run the tests', run: 'npm test' }],
      },
    }),
    workflow('test-e2e.yml', 'The operator built and run as a process against a real API server, with the RBAC of config/.', 'E2E Tests', on, {
      'test-e2e': {
        name: 'Run on Ubuntu',
        steps: [checkout, node(nodeVersions.image), controlPlane, install, setupEnvtest, { name: 'Run the end-to-end tests', run: 'npm run test:e2e' }],
      },
    }),
    workflow('release.yml', 'On a version tag: the SBOM (CycloneDX) of what the image ships, the production dependencies, as a build artefact.', 'Release', { push: { tags: ['v*'] } }, {
      sbom: {
        name: 'Software bill of materials',
        steps: [
          checkout,
          node(nodeVersions.image),
          // From the lock file alone: nothing is installed, so no dependency's code runs.
          { name: 'Write the SBOM of the production dependencies', run: 'npm sbom --sbom-format cyclonedx --omit dev --package-lock-only > sbom.cdx.json' },
          { name: 'Keep it with the run', uses: pinnedActions.uploadArtifact, with: { name: 'sbom', path: 'sbom.cdx.json', 'if-no-files-found': 'error' } },
        ],
      },
    }),
    dependabot(),
  ];
}

/** Weekly updates of the pinned actions, the npm dependencies and the Dockerfile's digests. */
function dependabot(): GeneratedFile {
  const weekly = (ecosystem: string) => ({ 'package-ecosystem': ecosystem, directory: '/', schedule: { interval: 'weekly' } });
  return {
    path: '.github/dependabot.yml',
    ownership: 'user',
    content: `# Keeps the workflows' action SHAs, the npm dependencies and the image's base digests current.\n${toYaml([
      { version: 2, updates: [weekly('github-actions'), weekly('npm'), weekly('docker')] },
    ])}`,
  };
}
