import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { cleanUp, opgenOk, projectDir } from './run.js';

// `init --cert-manager` (and `edit --cert-manager`): the webhooks certified by cert-manager,
// and the manager without the rights the built-in certificates need to patch its own
// webhook configurations (with which a compromised manager could widen their rules).
// Read from what kustomize renders, as `npm run deploy` applies it.

const run = promisify(execFile);
let dir: string;
const widget = ['--group', 'shop', '--version', 'v1', '--kind', 'Widget'];
afterEach(async () => {
  if (dir) await cleanUp(dir);
});

interface Rendered {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  rules?: { resources?: string[]; verbs?: string[] }[];
}

async function rendered(): Promise<Rendered[]> {
  await opgenOk(dir, 'manifests');
  const { stdout } = await run('kubectl', ['kustomize', join(dir, 'config/default')]);
  return parseAllDocuments(stdout).map((doc) => doc.toJS() as Rendered);
}

/** Whether any role of the deployment may change webhook configurations. */
const mayPatchWebhookConfigurations = (objects: Rendered[]) =>
  objects.some((o) => /Role$/.test(o.kind) && o.rules?.some((r) => r.resources?.some((res) => /webhookconfigurations$/.test(res)) && r.verbs?.some((v) => ['patch', 'update', '*'].includes(v))));

async function expectCertManager(): Promise<void> {
  const objects = await rendered();
  expect(objects.filter((o) => o.kind === 'Certificate' || o.kind === 'Issuer').map((o) => o.kind).sort()).toEqual(['Certificate', 'Issuer']);
  const mutating = objects.find((o) => o.kind === 'MutatingWebhookConfiguration')!;
  expect(mutating.metadata.annotations?.['cert-manager.io/inject-ca-from']).toMatch(/^shop-operator-system\/shop-operator-/);
  expect(mayPatchWebhookConfigurations(objects)).toBe(false);
  // The manager reads the Secret cert-manager fills, mounted.
  expect(await readFile(join(dir, 'config/default/manager_webhook_cert_patch.yaml'), 'utf8')).toContain('--webhook-cert-path=');
}

describe('cert-manager by choice', () => {
  it('init --cert-manager: the first webhook is certified by cert-manager, and the manager cannot patch webhook configurations', async () => {
    dir = await projectDir('shop-operator');
    await opgenOk(dir, 'init', '--domain', 'example.com', '--cert-manager', '--skip-install');
    expect(await readFile(join(dir, 'PROJECT'), 'utf8')).toContain('cert-manager');
    await opgenOk(dir, 'create', 'api', ...widget);
    await opgenOk(dir, 'create', 'webhook', ...widget, '--defaulting');
    await expectCertManager();
  });

  it('edit --cert-manager switches a built-in project, whose manager could patch them before', async () => {
    dir = await projectDir('shop-operator');
    await opgenOk(dir, 'init', '--domain', 'example.com', '--skip-install');
    await opgenOk(dir, 'create', 'api', ...widget);
    await opgenOk(dir, 'create', 'webhook', ...widget, '--defaulting');
    expect(mayPatchWebhookConfigurations(await rendered())).toBe(true);
    await opgenOk(dir, 'edit', '--cert-manager');
    await expectCertManager();
  });
});
