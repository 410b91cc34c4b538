import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'runtime/test/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**'],
    globalSetup: ['test/setup/tools.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // A real control plane per integration file: keep two files at a time on two cores.
    maxWorkers: 2,
  },
});
