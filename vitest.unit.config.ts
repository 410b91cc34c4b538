import { defineConfig } from 'vitest/config';
import { unitTestFiles } from './test/setup/unit-files.js';

/**
 * In-process but not quick: the CLI's tests that scaffold, upgrade, bundle or generate whole
 * projects, and tests that run the TypeScript compiler over a program (5–40 s each).
 */
const PROJECT_TESTS = [
  'test/scaffold/**',
  'test/upgrade/**',
  'test/bundle/**',
  'test/manifests/**',
  'test/import/**',
  'runtime/test/api/one-type-universe.test.ts',
  'runtime/test/testing/build.test.ts',
];

/**
 * `npm run test:unit`: the tests that start nothing outside their process (no control plane,
 * no CLI or operator process; the memory tier runs in-process) and build no whole project,
 * for a quick check while working. `npm test` runs them too, with everything else.
 */
export default defineConfig({
  test: {
    name: 'unit',
    include: unitTestFiles(import.meta.dirname, ['test', 'runtime/test']),
    exclude: PROJECT_TESTS,
    testTimeout: 60_000,
  },
});
