/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { defineConfig } from 'vitest/config';

// Controller tests run on the memory cluster (an API server in the test's process): no
// binaries, no download. OPGEN_TEST_TIER=controlplane runs them on a real API server and etcd.
const controlPlane = process.env.OPGEN_TEST_TIER === 'controlplane';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // On the control plane: finds (or downloads, the first time) its binaries once, before any test file.
    globalSetup: controlPlane ? ['vitest.global-setup.ts'] : [],
    // A real API server and etcd (the control-plane tier, webhook tests) take seconds to start.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
