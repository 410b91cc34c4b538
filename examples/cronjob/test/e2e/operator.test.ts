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

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProject, kubectlFor, startControlPlane, startOperator, type ControlPlane, type Operator } from '@opgen/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// The operator as it runs in a cluster: built (npm run build), started as `node dist/main.js`
// against a real API server and etcd, as the manager's ServiceAccount after config/default
// (what npm run deploy applies) is in place, so it gets exactly the RBAC opgen manifests wrote.
// Without a scheduler the manager's Deployment never runs a Pod: this process stands in for it.
// Add tests that create your kinds with kubectl and wait for what the operator does.
const project = fileURLToPath(new URL('../..', import.meta.url));
const namespace = 'cronjob-system';

let controlPlane: ControlPlane | undefined;
let operator: Operator | undefined;

beforeAll(async () => {
  [controlPlane] = await Promise.all([startControlPlane(), buildProject(project)]);
  const kubectl = kubectlFor(controlPlane, { cwd: project });
  // The CRDs of other projects' kinds this operator watches (create api --external-api-path).
  if (existsSync(join(project, 'config/crd/external'))) await kubectl(['apply', '--server-side', '-f', 'config/crd/external']);
  await kubectl(['apply', '--server-side', '-k', 'config/default']);
  await kubectl(['wait', '--for=condition=Established', '--timeout=30s', 'crd', '--all']);
  const manager = await controlPlane.serviceAccountKubeConfig(namespace, 'cronjob-controller-manager');
  // POD_NAMESPACE as the manager's Deployment sets it: the webhooks' certificates live there.
  operator = await startOperator({
    dir: project,
    kubeconfigPath: manager.kubeconfigPath,
    ports: 'free',
    env: { POD_NAMESPACE: namespace },
  });
});

afterAll(async () => {
  await operator?.stop();
  await controlPlane?.stop();
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.error(`operator output:\n${operator?.output()}`));
});

describe('the operator', () => {
  it('starts with the RBAC of config/ and reports ready', async () => {
    await operator!.waitForLog('Serving health probes', 60_000);
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${operator!.ports!.healthProbe}/readyz`)).status, { timeout: 60_000 }).toBe(200);
    expect(operator!.logs().filter((line) => line.level === 'error')).toEqual([]);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await operator!.stop()).toBe(0);
  });
});
