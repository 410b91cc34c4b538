import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The examples' own controller tests (src/) run too: they are what their users' `npm test` runs.
    include: ['test/**/*.test.ts', 'runtime/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'examples/*/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**'],
    globalSetup: ['test/setup/tools.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A real control plane per integration file: keep two files at a time on two cores.
    maxWorkers: 2,
  },
});
