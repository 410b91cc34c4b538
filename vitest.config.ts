import { defineConfig } from 'vitest/config';

/** The sharding tests at 30,000 objects: their replicas take both cores of a small machine for minutes. */
const SCALE = ['runtime/test/sharding/sharding.integration.test.ts', 'runtime/test/sharding/sharding-server.integration.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/setup/tools.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          // The examples' own controller tests (src/) run too: they are what their users' `npm test` runs.
          include: ['test/**/*.test.ts', 'runtime/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'examples/*/src/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/fixtures/**', ...SCALE],
          // A real control plane per integration file: keep two files at a time on two cores.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'scale',
          // After the suite and one at a time: beside other files, the suite's timing tests
          // starve, and the sharding tests' own SIGKILL bound (Lease + 1 s) would measure the load.
          include: SCALE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
