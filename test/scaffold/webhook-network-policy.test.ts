import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { editFile } from '../upgrade/run-upgrade.js';
import { cleanUp, opgenOk, projectDir } from './run.js';

// The optional network policy (config/network-policy, enabled in config/default) selects the
// manager's pods: once it is on, only what a policy admits reaches them. With webhooks, the
// API server must still reach the webhook server, or every write of the kind fails
// (failurePolicy: Fail). Read from what kustomize renders, as `npm run deploy` applies it.

const run = promisify(execFile);
let dir: string;
const widget = ['--group', 'shop', '--version', 'v1', '--kind', 'Widget'];

interface Policy {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec: { podSelector: { matchLabels: Record<string, string> }; ingress: { from?: unknown[]; ports: { port: number; protocol: string }[] }[] };
}

async function policies(): Promise<Policy[]> {
  await opgenOk(dir, 'manifests');
  const { stdout } = await run('kubectl', ['kustomize', join(dir, 'config/default')]);
  return parseAllDocuments(stdout)
    .map((doc) => doc.toJS() as Policy)
    .filter((object) => object.kind === 'NetworkPolicy');
}

/** The ports a policy admits from any source (a rule without `from`). */
const openPorts = (all: Policy[]) => all.flatMap((p) => p.spec.ingress.filter((rule) => !rule.from).flatMap((rule) => rule.ports.map((port) => port.port)));

beforeAll(async () => {
  dir = await projectDir('shop-operator');
  await opgenOk(dir, 'init', '--domain', 'example.com', '--skip-install');
  await opgenOk(dir, 'create', 'api', ...widget);
  await editFile(dir, 'config/default/kustomization.yaml', '  - metrics_service.yaml\n', '  - metrics_service.yaml\n  - ../network-policy\n');
});
afterAll(async () => {
  if (dir) await cleanUp(dir);
});

describe('the network policy with webhooks', () => {
  it('admits nothing but metrics scrapers before the project has webhooks', async () => {
    const rendered = await policies();
    expect(rendered.map((p) => p.metadata.name)).toEqual(['shop-operator-allow-metrics-traffic']);
    expect(openPorts(rendered)).toEqual([]);
  });

  it('admits the API server to the webhook port once create webhook ran, on the manager\'s pods', async () => {
    await opgenOk(dir, 'create', 'webhook', ...widget, '--defaulting', '--programmatic-validation');
    const rendered = await policies();
    expect(rendered.map((p) => p.metadata.name).sort()).toEqual(['shop-operator-allow-metrics-traffic', 'shop-operator-allow-webhook-traffic']);
    const webhook = rendered.find((p) => p.metadata.name === 'shop-operator-allow-webhook-traffic')!;
    expect(webhook.metadata.namespace).toBe('shop-operator-system');
    expect(webhook.spec.podSelector.matchLabels).toMatchObject({ 'control-plane': 'controller-manager' });
    // The webhook Service's target port: what the API server's calls arrive on at the pod.
    const { stdout } = await run('kubectl', ['kustomize', join(dir, 'config/default')]);
    const service = parseAllDocuments(stdout).map((d) => d.toJS()).find((o) => o.kind === 'Service' && o.metadata.name === 'shop-operator-webhook-service');
    expect(openPorts(rendered)).toEqual([service.spec.ports[0].targetPort]);
  });

  it('is taken out again by delete api with the last webhook', async () => {
    await opgenOk(dir, 'delete', 'api', ...widget);
    expect(existsSync(join(dir, 'config/network-policy/allow-webhook-traffic.yaml'))).toBe(false);
    const { stdout } = await run('kubectl', ['kustomize', join(dir, 'config/network-policy')]);
    expect(parseAllDocuments(stdout).map((d) => (d.toJS() as Policy).metadata.name)).toEqual(['allow-metrics-traffic']);
  });
});
