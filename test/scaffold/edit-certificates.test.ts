import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { helm } from '../helm/project.js';
import { cleanUp, opgen, opgenOk, projectDir, readTree } from './run.js';

// `opgen edit --webhook-certificates`: a project switched from one certificate mode to the
// other is the project `create webhook` would have made with that mode from the start,
// Helm chart included; the user's changes stay. Needs kubectl (kustomize) for the chart.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await cleanUp(dir);
});

const run = opgenOk;

const widget = (version: string, ...flags: string[]) => ['--group', 'shop', '--version', version, '--kind', 'Widget', ...flags];

/**
 * Widget v1 and v2 (v2 the hub of a conversion from v1, with defaulting and validation) and
 * Gadget v1 without webhooks; manifests run; with `chart`, the Helm chart made. The webhooks
 * come last: a switch appends the entries the new mode needs to the kustomizations' lists,
 * where `create webhook` put them, before any kind created after it.
 */
async function webhookProject(certificates: string[], options: { chart?: boolean } = {}): Promise<string> {
  const dir = await projectDir('shop-operator');
  dirs.push(dir);
  await run(dir, 'init', '--domain', 'example.com', '--skip-install');
  await run(dir, 'create', 'api', ...widget('v1'));
  await run(dir, 'create', 'api', ...widget('v2', '--no-controller'));
  await run(dir, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Gadget');
  await run(dir, 'create', 'webhook', ...widget('v2', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1', ...certificates));
  await run(dir, 'manifests');
  if (options.chart) await run(dir, 'edit', '--plugins', 'helm');
  return dir;
}

/** The two trees, file by file: the same paths, and each file the same text. */
async function expectSameTree(actual: string, expected: string): Promise<void> {
  const [got, want] = [await readTree(actual), await readTree(expected)];
  expect([...got.keys()]).toEqual([...want.keys()]);
  for (const [path, text] of want) expect(got.get(path), path).toBe(text);
}

describe('opgen edit --webhook-certificates', () => {
  it('switches built-in to cert-manager and back: each time the project create webhook makes with that mode', async () => {
    const switched = await webhookProject([]);
    const certManager = await webhookProject(['--certificates', 'cert-manager']);
    const builtIn = await webhookProject([]);

    const out = await run(switched, 'edit', '--webhook-certificates', 'cert-manager');
    expect(out).toMatch(/CREATE config\/certmanager\/certificate\.yaml/);
    expect(out).toMatch(/DELETE config\/rbac\/webhook_certs_role\.yaml/);
    expect(out).toContain('the cluster needs cert-manager');
    await expectSameTree(switched, certManager);

    await run(switched, 'edit', '--webhook-certificates', 'built-in');
    await expectSameTree(switched, builtIn);
  });

  it('takes the Helm chart along, and the chart loses the other mode\'s templates', async () => {
    const switched = await webhookProject([], { chart: true });
    const certManager = await webhookProject(['--certificates', 'cert-manager'], { chart: true });
    const builtIn = await webhookProject([], { chart: true });
    const roleTemplates = ['dist/chart/templates/rbac/webhook-certs-role-role.yaml', 'dist/chart/templates/rbac/webhook-certs-role-clusterrole.yaml'];
    const certManagerTemplates = ['dist/chart/templates/extras/selfsigned-issuer.yaml', 'dist/chart/templates/extras/serving-cert.yaml'];
    const before = [...(await readTree(switched)).keys()];
    expect(before).toEqual(expect.arrayContaining(roleTemplates));
    expect(before).not.toEqual(expect.arrayContaining(certManagerTemplates));

    await run(switched, 'edit', '--webhook-certificates', 'cert-manager');
    const after = [...(await readTree(switched)).keys()];
    expect(after).toEqual(expect.arrayContaining(certManagerTemplates));
    for (const template of roleTemplates) expect(after).not.toContain(template);
    await expectSameTree(switched, certManager);

    await run(switched, 'edit', '--webhook-certificates', 'built-in');
    await expectSameTree(switched, builtIn);
  });

  it('gives a chart whose release, of any name and namespace, has cert-manager certify its Service and inject the CA', async () => {
    const dir = await webhookProject([], { chart: true });
    await run(dir, 'edit', '--webhook-certificates', 'cert-manager');
    const rendered = await helm('template', 'storefront', join(dir, 'dist/chart'), '--namespace', 'shops');
    type Rendered = { kind: string; metadata: { name: string; annotations?: Record<string, string> }; spec?: { dnsNames?: string[] } };
    const objects = parseAllDocuments(rendered).map((d) => d.toJSON() as Rendered).filter(Boolean);
    const service = objects.find((o) => o.kind === 'Service' && o.metadata.name.endsWith('webhook-service'))!;
    const certificate = objects.find((o) => o.kind === 'Certificate')!;
    expect(service.metadata.name).toBe('storefront-shop-operator-webhook-service');
    expect(certificate.spec?.dnsNames).toEqual([`${service.metadata.name}.shops.svc`, `${service.metadata.name}.shops.svc.cluster.local`]);
    const injected = objects.filter((o) => o.metadata.annotations?.['cert-manager.io/inject-ca-from']);
    expect(injected.map((o) => o.kind).sort()).toEqual(['CustomResourceDefinition', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
    for (const object of injected) expect(object.metadata.annotations!['cert-manager.io/inject-ca-from']).toBe(`shops/${certificate.metadata.name}`);
  });

  it('keeps and reports a file the user changed, and the user\'s entries in the kustomizations', async () => {
    const dir = await webhookProject(['--certificates', 'cert-manager']);
    const certManagerKustomization = join(dir, 'config/certmanager/kustomization.yaml');
    const edited = `${await readFile(certManagerKustomization, 'utf8')}namePrefix: mine-\n`;
    await writeFile(certManagerKustomization, edited);
    const defaultKustomization = join(dir, 'config/default/kustomization.yaml');
    await writeFile(defaultKustomization, `${await readFile(defaultKustomization, 'utf8')}# reviewed by the platform team\n`);

    // The Service is the same in both modes: changed or not, the switch has nothing to do with it.
    const service = join(dir, 'config/webhook/service.yaml');
    const ownService = `${await readFile(service, 'utf8')}# ours\n`;
    await writeFile(service, ownService);

    const out = await run(dir, 'edit', '--webhook-certificates', 'built-in');
    expect(out).toContain('kept config/certmanager/kustomization.yaml: you changed it since opgen wrote it');
    expect(out).not.toContain('service.yaml');
    expect(await readFile(service, 'utf8')).toBe(ownService);
    expect(await readFile(certManagerKustomization, 'utf8')).toBe(edited);
    const tree = await readTree(dir);
    expect([...tree.keys()].filter((p) => p.startsWith('config/certmanager/'))).toEqual(['config/certmanager/kustomization.yaml']);
    const kustomization = tree.get('config/default/kustomization.yaml')!;
    expect(kustomization).toContain('# reviewed by the platform team');
    expect(kustomization).not.toContain('../certmanager');
    expect(kustomization).not.toContain('webhook_ca_injection_patch.yaml');
    expect(tree.get('config/rbac/kustomization.yaml')).toContain('webhook_certs_role.yaml');
    expect(tree.get('PROJECT')).not.toContain('webhookCertificates');
  });

  it('with --force rewrites and deletes the files the user changed too, but not the chart\'s Chart.yaml', async () => {
    const dir = await webhookProject(['--certificates', 'cert-manager'], { chart: true });
    const issuer = join(dir, 'config/certmanager/issuer.yaml');
    await writeFile(issuer, `${await readFile(issuer, 'utf8')}# ours\n`);
    const chartYaml = join(dir, 'dist/chart/Chart.yaml');
    const ownChart = `${await readFile(chartYaml, 'utf8')}# ours\n`;
    await writeFile(chartYaml, ownChart);

    const out = await run(dir, 'edit', '--webhook-certificates', 'built-in', '--force');
    expect(out).toContain('DELETE config/certmanager/issuer.yaml');
    expect(out).not.toMatch(/^\s*kept /m);
    expect(await readFile(chartYaml, 'utf8')).toBe(ownChart);
  });

  it('with --dry-run prints the plan and writes nothing', async () => {
    const dir = await webhookProject([], { chart: true });
    const before = await readTree(dir);
    const out = await run(dir, 'edit', '--webhook-certificates', 'cert-manager', '--dry-run');
    expect(out).toMatch(/config\/certmanager\/issuer\.yaml/);
    expect(out).toMatch(/dist\/chart\/templates\/extras\/serving-cert\.yaml/);
    expect(await readTree(dir)).toEqual(before);
  });

  it('to the mode in use: one line, nothing written', async () => {
    const dir = await webhookProject(['--certificates', 'cert-manager']);
    const before = await readTree(dir);
    const out = await run(dir, 'edit', '--webhook-certificates', 'cert-manager');
    expect(out).toBe("The project's webhooks already use cert-manager certificates; nothing to change.\n");
    expect(await readTree(dir)).toEqual(before);
  });

  it('without webhooks records the mode, which the first create webhook uses', async () => {
    const recorded = await projectDir('shop-operator');
    dirs.push(recorded);
    await run(recorded, 'init', '--domain', 'example.com', '--skip-install');
    await run(recorded, 'create', 'api', ...widget('v1'));
    await run(recorded, 'create', 'api', ...widget('v2', '--no-controller'));
    const out = await run(recorded, 'edit', '--webhook-certificates', 'cert-manager');
    expect(out).toContain('opgen create webhook wires cert-manager certificates for the first one');
    expect(await readFile(join(recorded, 'PROJECT'), 'utf8')).toContain('webhookCertificates: cert-manager');
    await run(recorded, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Gadget');
    await run(recorded, 'create', 'webhook', ...widget('v2', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1'));
    await run(recorded, 'manifests');

    await expectSameTree(recorded, await webhookProject(['--certificates', 'cert-manager']));
  });

  it('refuses an unknown mode, and --namespaced in the same run, writing nothing', async () => {
    const dir = await webhookProject([]);
    const before = await readTree(dir);
    const unknown = await opgen(dir, 'edit', '--webhook-certificates', 'vault');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/'vault' is invalid\. Allowed choices are built-in, cert-manager/);
    const both = await opgen(dir, 'edit', '--webhook-certificates', 'cert-manager', '--namespaced');
    expect(both).toMatchObject({
      code: 1,
      stderr: 'error: --webhook-certificates and --namespaced both change config/rbac; change one, then the other (run opgen edit twice)\n',
    });
    expect(await readTree(dir)).toEqual(before);
  });
});
