import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliVersion } from '../../src/version.js';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';
import { editFile } from './run-upgrade.js';

// A 0.1.0 project as released (no cliVersion in PROJECT) with a conversion webhook: its
// Deployment probed /readyz, which waits for caches that list through the manager's own
// /convert, which the Service routes only to ready pods. The upgrade moves the probe.

let dir: string;
const patch = 'config/default/manager_webhook_patch.yaml';
const probe = '          readinessProbe:\n            httpGet:\n              path: /readyz/webhook\n              port: 8081\n';
const comment =
  "# The readiness probe is /readyz/webhook, the webhook server alone: the caches list the converted\n# kinds through this manager's /convert, which the Service routes only to ready pods.\n";
const read = (path: string) => readFile(join(dir, path), 'utf8');

beforeEach(async () => {
  dir = await projectDir('shop-operator');
  const run = async (...args: string[]) => expect((await opgen(dir, ...args)).code).toBe(0);
  await run('init', '--domain', 'example.com', '--skip-install');
  await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');
  await run('create', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--no-controller');
  await run('create', 'webhook', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--conversion', '--spoke', 'v1');
  await editFile(dir, 'PROJECT', `cliVersion: ${cliVersion}\n`, '');
  await editFile(dir, patch, probe, '');
  await editFile(dir, patch, comment, '');
  await rm(join(dir, 'config/network-policy/allow-webhook-traffic.yaml'));
  await editFile(dir, 'config/network-policy/kustomization.yaml', '  - allow-webhook-traffic.yaml\n', '');
});
afterEach(() => cleanUp(dir));

describe('opgen upgrade of a 0.1.0 project with a conversion webhook', () => {
  it('points the readiness probe at /readyz/webhook', async () => {
    const result = await opgen(dir, 'upgrade', '--force');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^UPDATE   config\/default\/manager_webhook_patch\.yaml$/m);
    const upgraded = await read(patch);
    expect(upgraded).toContain(probe);
    expect(upgraded).toContain(comment);
    // 0.1.0 wrote no network policy for the webhooks: the upgrade adds it.
    expect(result.stdout).toMatch(/^CREATE   config\/network-policy\/allow-webhook-traffic\.yaml$/m);
    expect(result.stdout).toMatch(/^UPDATE   config\/network-policy\/kustomization\.yaml$/m);
  });

  it('leaves /readyz to a project whose webhooks are admission only', async () => {
    const other = await projectDir('admission-only');
    try {
      const run = async (...args: string[]) => expect((await opgen(other, ...args)).code).toBe(0);
      await run('init', '--domain', 'example.com', '--skip-install');
      await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');
      await run('create', 'webhook', '--group', 'shop', '--version', 'v1', '--kind', 'Widget', '--defaulting');
      expect(await readFile(join(other, patch), 'utf8')).not.toContain('readinessProbe');
    } finally {
      await cleanUp(other);
    }
  });
});
