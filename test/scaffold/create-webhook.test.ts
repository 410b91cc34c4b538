import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookOptions, runCreateWebhook } from '../../src/commands/create-webhook.js';
import { parseProject } from '../../src/project/parse.js';
import { helm } from '../helm/project.js';
import { cleanUp, opgen, projectDir, readTree, expectRefused as expectRefusedIn } from './run.js';

// `opgen create webhook`: kubebuilder's flags and rules, PROJECT as kubebuilder records it,
// the handler files, the registration in src/main.ts and the config/ wiring.

let dir: string;
afterEach(async () => {
  if (dir) await cleanUp(dir);
});

async function run(...args: string[]): Promise<string> {
  const result = await opgen(dir, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

const expectRefused = (args: string[], message: RegExp): Promise<void> => expectRefusedIn(dir, args, message);

const read = (path: string) => readFile(join(dir, path), 'utf8');

/** A project with Widget in v1 (with its controller) and v2. */
async function widgetProject(): Promise<void> {
  dir = await projectDir('shop-operator');
  await run('init', '--domain', 'example.com', '--skip-install');
  await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');
  await run('create', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--no-controller');
}

type Manifest = { kind: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; [key: string]: any };

/** `kubectl kustomize <folder>` of the project, with the control plane's kubectl. */
async function kustomized(folder: string): Promise<Manifest[]> {
  const kubectl = join(process.env.KUBEBUILDER_ASSETS ?? join(homedir(), '.cache/opgen/controlplane/1.36.3'), 'kubectl');
  const { stdout } = await promisify(execFile)(kubectl, ['kustomize', join(dir, folder)], { maxBuffer: 1 << 24 });
  return parseAllDocuments(stdout).map((d) => d.toJSON() as Manifest);
}

/** Sets config/default's namespace and name prefix, as a user deploying the operator elsewhere does. */
async function deployAs(namespace: string, namePrefix: string): Promise<void> {
  const path = join(dir, 'config/default/kustomization.yaml');
  const text = await readFile(path, 'utf8');
  await writeFile(path, text.replace(/^namespace: .*$/m, `namespace: ${namespace}`).replace(/^namePrefix: .*$/m, `namePrefix: ${namePrefix}`));
}

const widget = (version: string, ...flags: string[]) => ['create', 'webhook', '--group', 'shop', '--version', version, '--kind', 'Widget', ...flags];

describe('opgen create webhook', () => {
  it('records the webhooks in PROJECT exactly as kubebuilder does', async () => {
    await widgetProject();
    await run(...widget('v2', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1'));
    const project = await read('PROJECT');
    expect(project).toContain(
      [
        '    plural: widgets',
        '    version: v2',
        '    webhooks:',
        '      conversion: true',
        '      defaulting: true',
        '      spoke:',
        '        - v1',
        '      validation: true',
        '      webhookVersion: v1',
      ].join('\n'),
    );
    // v1 has no webhooks of its own.
    expect(project.match(/webhooks:/g)).toHaveLength(1);
  });

  it('writes the handler, its test and the conversion, and registers them once in src/main.ts', async () => {
    await widgetProject();
    await run(...widget('v2', '--defaulting'));
    const first = await read('src/webhooks/v2/widget_webhook.ts');
    expect(first).toContain('// +kubebuilder:webhook:path=/mutate-shop-example-com-v2-widget,mutating=true,failurePolicy=fail,sideEffects=None,groups=shop.example.com,resources=widgets,verbs=create;update,versions=v2,name=mwidget-v2.kb.io,admissionReviewVersions=v1');
    expect(first).not.toContain('+kubebuilder:webhook:path=/validate');
    expect(await read('src/webhooks/v2/widget_webhook.test.ts')).toContain("it('default the tier label of a new Widget'");

    // A second type of webhook for the kind edits the file opgen wrote.
    await run(...widget('v2', '--programmatic-validation'));
    const second = await read('src/webhooks/v2/widget_webhook.ts');
    expect(second).toContain('.default((widget) => {');
    expect(second).toContain('+kubebuilder:webhook:path=/validate-shop-example-com-v2-widget,mutating=false');
    expect(await read('src/webhooks/v2/widget_webhook.test.ts')).toContain("it('refuse a change of the tier label, with the reason'");

    await run(...widget('v2', '--conversion', '--spoke', 'v1'));
    expect(await read('src/webhooks/v2/widget_conversion.ts')).toContain('.spoke(WidgetV1, widgetV1Conversion);');
    expect(await read('src/webhooks/v2/widget_conversion.test.ts')).toContain('fc.assert(');
    const setup = await read('src/webhooks/setup.ts');
    expect(setup).toContain("crds: ['widgets.shop.example.com'],");
    expect(setup).toMatch(/setupWidgetWebhook\(mgr\);\n {2}setupWidgetConversion\(mgr\);/);
    const main = await read('src/main.ts');
    expect(main.match(/import \{ setupWebhooks \} from '\.\/webhooks\/setup\.js';/g)).toHaveLength(1);
    expect(main.match(/setupWebhooks\(mgr, options\);/g)).toHaveLength(1);
    expect(JSON.parse(await read('package.json')).devDependencies['fast-check']).toMatch(/^\^4\./);
  });

  it('serves a built-in kind on custom paths, and records it as kubebuilder records a core type', async () => {
    await widgetProject();
    await run('create', 'webhook', '--group', 'core', '--version', 'v1', '--kind', 'Pod', '--defaulting', '--defaulting-path', '/mutate-pods', '--programmatic-validation', '--validation-path', '/validate-pods');
    const handler = await read('src/webhooks/v1/pod_webhook.ts');
    expect(handler).toContain("import { deny, kinds, webhook, type Manager } from '@opgen/runtime';");
    expect(handler).toContain(".for(kinds.Pod, { defaulting: '/mutate-pods', validation: '/validate-pods' })");
    expect(handler).toContain('+kubebuilder:webhook:path=/mutate-pods,mutating=true,failurePolicy=fail,sideEffects=None,groups="",resources=pods,verbs=create;update,versions=v1,name=mpod-v1.kb.io');
    expect(await read('PROJECT')).toContain(
      ['  - controller: false', '    group: core', '    kind: Pod', '    path: k8s.io/api/core/v1', '    plural: pods', '    version: v1', '    webhooks:', '      defaulting: true', '      defaultingPath: /mutate-pods', '      validation: true', '      validationPath: /validate-pods', '      webhookVersion: v1'].join('\n'),
    );

    await run('create', 'webhook', '--group', 'apps', '--version', 'v1', '--kind', 'Deployment', '--programmatic-validation');
    expect(await read('src/webhooks/v1/deployment_webhook.ts')).toContain('groups=apps,resources=deployments');
    await run('create', 'webhook', '--group', 'cert-manager', '--version', 'v1', '--kind', 'Certificate', '--defaulting', '--external-api-domain', 'io', '--external-api-path', 'src/external/certificate.ts');
    const external = await read('src/webhooks/v1/certificate_webhook.ts');
    expect(external).toContain("import { Certificate } from '../../external/certificate.js';");
    expect(external).toContain('groups=cert-manager.io,resources=certificates');
  });

  it('wires config/ from PROJECT: the Service, the manager, least-privilege RBAC for the built-in certificates, the CRD conversion', async () => {
    await widgetProject();
    await run(...widget('v2', '--defaulting', '--conversion', '--spoke', 'v1'));
    await run('manifests');
    const objects = await kustomized('config/default');
    const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;

    expect(find('Service', 'shop-operator-webhook-service').spec.ports).toEqual([{ port: 443, protocol: 'TCP', targetPort: 9443 }]);
    const manager = find('Deployment', 'shop-operator-controller-manager').spec.template.spec.containers[0];
    expect(manager.ports).toContainEqual({ containerPort: 9443, name: 'webhook-server', protocol: 'TCP' });
    expect(manager.env).toContainEqual({ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    const service = { name: 'shop-operator-webhook-service', namespace: 'shop-operator-system' };
    expect(find('MutatingWebhookConfiguration', 'shop-operator-mutating-webhook-configuration').webhooks[0].clientConfig.service).toMatchObject(service);
    expect(find('CustomResourceDefinition', 'widgets.shop.example.com').spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { ...service, path: '/convert' } }, conversionReviewVersions: ['v1'] },
    });
    expect(find('Role', 'shop-operator-webhook-certs-role').rules).toEqual([
      { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      { apiGroups: [''], resourceNames: ['shop-operator-webhook-server-cert'], resources: ['secrets'], verbs: ['get', 'update'] },
    ]);
    expect(find('ClusterRole', 'shop-operator-webhook-certs-role').rules).toEqual([
      { apiGroups: ['admissionregistration.k8s.io'], resourceNames: ['shop-operator-mutating-webhook-configuration'], resources: ['mutatingwebhookconfigurations'], verbs: ['get', 'update'] },
      { apiGroups: ['apiextensions.k8s.io'], resourceNames: ['widgets.shop.example.com'], resources: ['customresourcedefinitions'], verbs: ['get', 'update'] },
    ]);
    // The names the manager is told in src/webhooks/setup.ts are those kustomize gives the objects.
    const setup = await read('src/webhooks/setup.ts');
    expect(setup).toContain("name: 'shop-operator-webhook-server-cert'");
    expect(setup).toContain("mutatingWebhookConfigurations: [process.env.MUTATING_WEBHOOK_CONFIGURATION ?? 'shop-operator-mutating-webhook-configuration'],");
    expect(manager.env).toContainEqual({ name: 'MUTATING_WEBHOOK_CONFIGURATION', value: 'shop-operator-mutating-webhook-configuration' });
    expect(manager.env).toContainEqual({ name: 'WEBHOOK_SERVICE_NAME', value: 'shop-operator-webhook-service' });
    expect(setup).not.toContain('validatingWebhookConfigurations');
  });

  it('for the CronJob tutorial\'s own batch CronJob, not the built-in one', async () => {
    dir = await projectDir('project');
    await run('init', '--domain', 'tutorial.kubebuilder.io', '--skip-install');
    await run('create', 'api', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob');
    await run('create', 'webhook', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob', '--defaulting', '--programmatic-validation');
    const handler = await read('src/webhooks/v1/cronjob_webhook.ts');
    expect(handler).toContain("import { CronJob } from '../../api/v1/cronjob_types.js';");
    expect(handler).toContain('path=/mutate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs');
    expect((await read('PROJECT')).match(/kind: CronJob/g)).toHaveLength(1);
  });

  it('in a multigroup project, puts each group\'s webhooks in its folder and names a namesake kind\'s webhooks apart', async () => {
    dir = await projectDir('fleet-operator');
    await run('init', '--domain', 'example.com', '--multigroup', '--skip-install');
    await run('create', 'api', '--group', 'ship', '--version', 'v1', '--kind', 'Frigate');
    await run('create', 'api', '--group', 'sea', '--version', 'v1', '--kind', 'Frigate', '--no-controller');
    await run('create', 'webhook', '--group', 'ship', '--version', 'v1', '--kind', 'Frigate', '--defaulting');
    await run('create', 'webhook', '--group', 'sea', '--version', 'v1', '--kind', 'Frigate', '--defaulting');
    expect(await read('src/webhooks/ship/v1/frigate_webhook.ts')).toContain('name=mfrigate-v1.kb.io');
    expect(await read('src/webhooks/sea/v1/frigate_webhook.ts')).toContain('name=mfrigate-sea-v1.kb.io');
    const setup = await read('src/webhooks/setup.ts');
    expect(setup).toContain("import { setupFrigateWebhook as setupShipFrigateWebhook } from './ship/v1/frigate_webhook.js';");
    expect(setup).toContain("import { setupFrigateWebhook as setupSeaFrigateWebhook } from './sea/v1/frigate_webhook.js';");
    await run('manifests');
    expect(await read('config/webhook/manifests.yaml')).toContain('name: mfrigate-sea-v1.kb.io');
  });

  it('with --certificates cert-manager, wires cert-manager as kubebuilder does instead of the built-in certificates', async () => {
    await widgetProject();
    await run(...widget('v2', '--defaulting', '--conversion', '--spoke', 'v1', '--certificates', 'cert-manager'));
    expect(await read('PROJECT')).toContain('webhookCertificates: cert-manager');
    await run('manifests');
    const objects = await kustomized('config/default');
    const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
    const certificate = find('Certificate', 'shop-operator-serving-cert');
    expect(certificate.spec).toEqual({
      dnsNames: ['shop-operator-webhook-service.shop-operator-system.svc', 'shop-operator-webhook-service.shop-operator-system.svc.cluster.local'],
      issuerRef: { kind: 'Issuer', name: 'shop-operator-selfsigned-issuer' },
      secretName: 'webhook-server-cert',
    });
    expect(find('Issuer', 'shop-operator-selfsigned-issuer').spec).toEqual({ selfSigned: {} });
    const inject = { 'cert-manager.io/inject-ca-from': 'shop-operator-system/shop-operator-serving-cert' };
    expect(find('MutatingWebhookConfiguration', 'shop-operator-mutating-webhook-configuration').metadata.annotations).toEqual(inject);
    expect(find('CustomResourceDefinition', 'widgets.shop.example.com').metadata.annotations).toMatchObject(inject);
    const pod = find('Deployment', 'shop-operator-controller-manager').spec.template.spec;
    expect(pod.containers[0].args).toContain('--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs');
    expect(pod.containers[0].volumeMounts).toContainEqual({ mountPath: '/tmp/k8s-webhook-server/serving-certs', name: 'webhook-certs', readOnly: true });
    expect(pod.volumes).toContainEqual({ name: 'webhook-certs', secret: { secretName: 'webhook-server-cert' } });
    expect(objects.filter((o) => o.metadata.name.includes('webhook-certs-role'))).toEqual([]);

    await expectRefused(widget('v2', '--programmatic-validation', '--certificates', 'built-in'), /^PROJECT: error: --certificates built-in: the project's webhooks already use cert-manager certificates \(switch them all with opgen edit --webhook-certificates built-in, then create the webhook without --certificates\)$/);
  });

  it('with cert-manager, gives the Certificate and the CA injection the namespace and name prefix the user sets in config/default', async () => {
    await widgetProject();
    await run(...widget('v2', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1', '--certificates', 'cert-manager'));
    await run('manifests');
    await deployAs('storefront', 'shop-');
    const objects = await kustomized('config/default');
    const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
    expect(find('Service', 'shop-webhook-service').metadata.namespace).toBe('storefront');
    expect(find('Certificate', 'shop-serving-cert').spec.dnsNames).toEqual(['shop-webhook-service.storefront.svc', 'shop-webhook-service.storefront.svc.cluster.local']);
    const inject = { 'cert-manager.io/inject-ca-from': 'storefront/shop-serving-cert' };
    expect(find('MutatingWebhookConfiguration', 'shop-mutating-webhook-configuration').metadata.annotations).toEqual(inject);
    expect(find('ValidatingWebhookConfiguration', 'shop-validating-webhook-configuration').metadata.annotations).toEqual(inject);
    expect(find('CustomResourceDefinition', 'widgets.shop.example.com').metadata.annotations).toMatchObject(inject);
    // Nothing keeps the names opgen init chose (the manager's environment included), nor a placeholder.
    expect(JSON.stringify(objects).match(/shop-operator-[a-z-]*|SERVICE_NAME\.|CERTIFICATE_NAME/g)).toBeNull();
  });

  it('with the built-in certificates, tells the manager and its RBAC the names and namespace the user sets in config/default', async () => {
    await widgetProject();
    await run(...widget('v2', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1'));
    await run('manifests');
    await deployAs('storefront', 'shop-');
    const objects = await kustomized('config/default');
    const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
    const env = find('Deployment', 'shop-controller-manager').spec.template.spec.containers[0].env;
    expect(env).toEqual([
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'WEBHOOK_SERVICE_NAME', value: 'shop-webhook-service' },
      { name: 'MUTATING_WEBHOOK_CONFIGURATION', value: 'shop-mutating-webhook-configuration' },
      { name: 'VALIDATING_WEBHOOK_CONFIGURATION', value: 'shop-validating-webhook-configuration' },
    ]);
    expect(find('ClusterRole', 'shop-webhook-certs-role').rules.flatMap((r: { resourceNames: string[] }) => r.resourceNames)).toEqual([
      'shop-mutating-webhook-configuration',
      'shop-validating-webhook-configuration',
      'widgets.shop.example.com',
    ]);
    // The Secret is the manager's own (not a config/ object): the Role names what setup.ts creates, in the pod's namespace.
    const role = find('Role', 'shop-webhook-certs-role');
    expect(role.metadata.namespace).toBe('storefront');
    expect(role.rules[1].resourceNames).toEqual(['shop-operator-webhook-server-cert']);
    expect(await read('src/webhooks/setup.ts')).toContain("secret: { namespace, name: 'shop-operator-webhook-server-cert' },");
    expect(find('RoleBinding', 'shop-webhook-certs-rolebinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'shop-controller-manager', namespace: 'storefront' }]);
  });

  it('carries the webhooks into the Helm chart, the manager told the names the release gives them', async () => {
    await widgetProject();
    await run(...widget('v2', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1'));
    await run('manifests');
    await run('edit', '--plugins', 'helm');
    const rendered = await helm('template', 'storefront', join(dir, 'dist/chart'), '--namespace', 'shops');
    const objects = parseAllDocuments(rendered).map((d) => d.toJSON() as { kind: string; metadata: { name: string }; [key: string]: any }).filter(Boolean);
    const named = (kind: string) => objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);
    const env = Object.fromEntries(
      (objects.find((o) => o.kind === 'Deployment')!.spec.template.spec.containers[0].env as { name: string; value?: string }[]).map((e) => [e.name, e.value]),
    );
    expect(named('MutatingWebhookConfiguration')).toEqual([env.MUTATING_WEBHOOK_CONFIGURATION]);
    expect(named('ValidatingWebhookConfiguration')).toEqual([env.VALIDATING_WEBHOOK_CONFIGURATION]);
    expect(named('Service')).toContain(env.WEBHOOK_SERVICE_NAME);
    expect(env.WEBHOOK_SERVICE_NAME).not.toBe('shop-operator-webhook-service');
    const certRules = objects.find((o) => o.kind === 'ClusterRole' && o.metadata.name.endsWith('webhook-certs-role'))!.rules as { resourceNames: string[] }[];
    expect(certRules.flatMap((r) => r.resourceNames)).toEqual([env.MUTATING_WEBHOOK_CONFIGURATION, env.VALIDATING_WEBHOOK_CONFIGURATION, 'widgets.shop.example.com']);
  });

  it('re-scaffolds a webhook type with --force, keeping a file the user changed', async () => {
    await widgetProject();
    await run(...widget('v1', '--defaulting'));
    const path = join(dir, 'src/webhooks/v1/widget_webhook.ts');
    await writeFile(path, `${await read('src/webhooks/v1/widget_webhook.ts')}// mine\n`);
    const out = await run(...widget('v1', '--defaulting', '--force'));
    expect(out).toContain('kept src/webhooks/v1/widget_webhook.ts');
    expect(await read('src/webhooks/v1/widget_webhook.ts')).toContain('// mine');

    // Re-running is idempotent, and touches only the files of the types asked for.
    await run(...widget('v1', '--conversion', '--spoke', 'v2'));
    await writeFile(join(dir, 'src/webhooks/v1/widget_conversion.ts'), '// mine too\n');
    const again = await run(...widget('v1', '--defaulting', '--force'));
    expect(again).not.toMatch(/CREATE|UPDATE|conversion/);
    expect(await read('src/webhooks/v1/widget_conversion.ts')).toBe('// mine too\n');
  });
});

describe('opgen create webhook refuses', () => {
  it.each([
    ['no webhook type', widget('v1'), /^error: no webhook type: pass --defaulting, --programmatic-validation or --conversion \(or several\)$/],
    ['a kind that does not exist', ['create', 'webhook', '--group', 'shop', '--version', 'v1', '--kind', 'Gadget', '--defaulting'], /^PROJECT: error: kind Gadget \(shop\.example\.com\/v1\) does not exist in this project \(create it first: opgen create api --group shop --version v1 --kind Gadget\)$/],
    ['a version the kind does not have', widget('v3', '--defaulting'), /^PROJECT: error: kind Widget \(shop\.example\.com\/v3\) does not exist in this project \(Widget has the versions v1, v2\)$/],
    ['a built-in kind opgen has no handle for', ['create', 'webhook', '--group', 'core', '--version', 'v1', '--kind', 'Potato', '--defaulting'], /^error: --group core --version v1 --kind Potato: not a built-in kind opgen has a handle for/],
    ['a spoke that is not a version of the kind', widget('v2', '--conversion', '--spoke', 'v1,v9'), /^PROJECT: error: --spoke v9: not a version of Widget \(it has v1, v2\)/],
    ['the hub as its own spoke', widget('v2', '--conversion', '--spoke', 'v2'), /^error: --spoke v2: v2 is the hub itself/],
    ['--conversion without spokes', widget('v2', '--conversion'), /^error: --conversion needs --spoke/],
    ['--spoke without --conversion', widget('v2', '--defaulting', '--spoke', 'v1'), /^error: --spoke needs --conversion$/],
    ['a defaulting path without --defaulting', widget('v2', '--programmatic-validation', '--defaulting-path', '/m'), /^error: --defaulting-path needs --defaulting$/],
    ['a path that is not a path', widget('v2', '--defaulting', '--defaulting-path', 'mutate'), /^error: --defaulting-path mutate: expected a URL path starting with \//],
  ])('%s', async (_, args, message) => {
    await widgetProject();
    await expectRefused(args, message);
  });

  it('the same webhook twice without --force, and a second hub', async () => {
    await widgetProject();
    await run(...widget('v1', '--defaulting', '--programmatic-validation'));
    await expectRefused(widget('v1', '--programmatic-validation'), /^PROJECT: error: Widget \(shop\.example\.com\/v1\) already has a validating webhook; nothing was written \(pass --force to scaffold it again\)$/);
    await run(...widget('v2', '--conversion', '--spoke', 'v1'));
    await expectRefused(widget('v1', '--conversion', '--spoke', 'v2'), /^PROJECT: error: --conversion: Widget already has its hub, version v2; a kind has one hub/);
  });
});

describe('replaying PROJECT', () => {
  it('createWebhookOptions gives the create webhook that scaffolds what PROJECT records, into a fresh project identically', async () => {
    await widgetProject();
    await run(...widget('v2', '--defaulting', '--defaulting-path', '/mutate-widgets', '--programmatic-validation', '--conversion', '--spoke', 'v1'));
    const first = await readTree(dir);
    const project = parseProject(first.get('PROJECT')!, 'PROJECT');
    const options = project.resources.map((r) => createWebhookOptions(project, r)).filter((o) => o !== undefined);
    expect(options).toEqual([
      { group: 'shop', version: 'v2', kind: 'Widget', defaulting: true, programmaticValidation: true, conversion: true, spoke: ['v1'], defaultingPath: '/mutate-widgets', certificates: 'built-in' },
    ]);
    const replayed = dir;
    await widgetProject();
    for (const option of options) await runCreateWebhook(dir, option);
    expect(await readTree(dir)).toEqual(first);
    await cleanUp(replayed);
  });
});
