import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanUp, opgen } from '../scaffold/run.js';
import { copyExample, repo } from './project.js';

// OLM serves webhooks itself, from the CSV's webhook definitions: config/webhook's
// configurations and a CRD's conversion webhook become definitions pointed at the manager.

let dir: string | undefined;
afterEach(async () => {
  if (dir) await cleanUp(dir);
  dir = undefined;
});

const olmValidate = execFileSync('bash', [join(repo, 'hack/olm-validate/build.sh'), '--print'], { encoding: 'utf8' }).trim();

const webhookManifests = `---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
  - admissionReviewVersions: [v1]
    clientConfig:
      service: {name: webhook-service, namespace: system, path: /mutate-app-example-com-v1alpha1-podset}
    failurePolicy: Fail
    name: mpodset-v1alpha1.kb.io
    rules:
      - apiGroups: [app.example.com]
        apiVersions: [v1alpha1]
        operations: [CREATE, UPDATE]
        resources: [podsets]
    sideEffects: None
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
  - admissionReviewVersions: [v1]
    clientConfig:
      service: {name: webhook-service, namespace: system, path: /validate-app-example-com-v1alpha1-podset}
    failurePolicy: Fail
    name: vpodset-v1alpha1.kb.io
    rules:
      - apiGroups: [app.example.com]
        apiVersions: [v1alpha1]
        operations: [CREATE, UPDATE]
        resources: [podsets]
    sideEffects: None
`;

describe('opgen bundle with webhooks', () => {
  it('turns config/webhook/manifests.yaml into webhook definitions both validators accept', async () => {
    dir = await copyExample('podset');
    await mkdir(join(dir, 'config/webhook'));
    await writeFile(join(dir, 'config/webhook/manifests.yaml'), webhookManifests);
    expect((await opgen(dir, 'bundle')).code).toBe(0);
    const csv = parse(await readFile(join(dir, 'bundle/manifests/podset.clusterserviceversion.yaml'), 'utf8'));
    expect(csv.spec.webhookdefinitions).toEqual([
      {
        admissionReviewVersions: ['v1'],
        containerPort: 443,
        deploymentName: 'podset-controller-manager',
        failurePolicy: 'Fail',
        generateName: 'mpodset-v1alpha1.kb.io',
        rules: [{ apiGroups: ['app.example.com'], apiVersions: ['v1alpha1'], operations: ['CREATE', 'UPDATE'], resources: ['podsets'] }],
        sideEffects: 'None',
        targetPort: 9443,
        type: 'MutatingAdmissionWebhook',
        webhookPath: '/mutate-app-example-com-v1alpha1-podset',
      },
      {
        admissionReviewVersions: ['v1'],
        containerPort: 443,
        deploymentName: 'podset-controller-manager',
        failurePolicy: 'Fail',
        generateName: 'vpodset-v1alpha1.kb.io',
        rules: [{ apiGroups: ['app.example.com'], apiVersions: ['v1alpha1'], operations: ['CREATE', 'UPDATE'], resources: ['podsets'] }],
        sideEffects: 'None',
        targetPort: 9443,
        type: 'ValidatingAdmissionWebhook',
        webhookPath: '/validate-app-example-com-v1alpha1-podset',
      },
    ]);
    expect((await opgen(dir, 'bundle', 'validate')).code).toBe(0);
    expect(spawnSync(olmValidate, [join(dir, 'bundle')]).status).toBe(0);
  });

  it('warns about what a definition cannot carry: matchConditions and a namespaceSelector', async () => {
    dir = await copyExample('podset');
    await mkdir(join(dir, 'config/webhook'));
    const extra = '    namespaceSelector: {matchLabels: {team: a}}\n    matchConditions:\n      - {name: not-system, expression: "!request.userInfo.username.startsWith(\'system:\')"}\n';
    await writeFile(join(dir, 'config/webhook/manifests.yaml'), webhookManifests.replace('    name: vpodset-v1alpha1.kb.io\n', `    name: vpodset-v1alpha1.kb.io\n${extra}`));
    const result = await opgen(dir, 'bundle');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'config/webhook/manifests.yaml: warning: webhook vpodset-v1alpha1.kb.io: OLM sets the namespaceSelector itself, to the namespaces the operator is installed for; the one in config/webhook is not used\n' +
        'config/webhook/manifests.yaml: warning: webhook vpodset-v1alpha1.kb.io: an OLM webhook definition cannot carry matchConditions; OLM registers the webhook without them, so it is called for every object its rules match\n',
    );
  });

  it('makes a conversion webhook a definition, installable in AllNamespaces only', async () => {
    dir = await copyExample('podset');
    const crd = join(dir, 'config/crd/bases/app.example.com_podsets.yaml');
    const conversion = '  conversion:\n    strategy: Webhook\n    webhook:\n      clientConfig:\n        service: {name: webhook-service, namespace: system, path: /convert}\n      conversionReviewVersions: [v1]\n';
    await writeFile(crd, (await readFile(crd, 'utf8')).replace(/^spec:\n/m, `spec:\n${conversion}`));
    expect((await opgen(dir, 'bundle')).code).toBe(0);
    const csv = parse(await readFile(join(dir, 'bundle/manifests/podset.clusterserviceversion.yaml'), 'utf8'));
    expect(csv.spec.webhookdefinitions).toEqual([
      expect.objectContaining({ type: 'ConversionWebhook', conversionCRDs: ['podsets.app.example.com'], deploymentName: 'podset-controller-manager', webhookPath: '/convert' }),
    ]);
    expect(csv.spec.installModes.filter((m: { supported: boolean }) => m.supported)).toEqual([{ type: 'AllNamespaces', supported: true }]);
    expect((await opgen(dir, 'bundle', 'validate')).code).toBe(0);
    expect(spawnSync(olmValidate, [join(dir, 'bundle')]).status).toBe(0);

    // The same bundle, installable in one namespace too: both validators refuse it.
    const csvPath = join(dir, 'bundle/manifests/podset.clusterserviceversion.yaml');
    await writeFile(csvPath, (await readFile(csvPath, 'utf8')).replace(/supported: false\n(\s+)type: OwnNamespace/, 'supported: true\n$1type: OwnNamespace'));
    const result = await opgen(dir, 'bundle', 'validate');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bundle\/manifests\/podset\.clusterserviceversion\.yaml:\d+: error: an operator with a conversion webhook must support AllNamespaces and no other install mode$/m);
    expect(spawnSync(olmValidate, [join(dir, 'bundle')], { encoding: 'utf8' }).stdout).toMatch(/only AllNamespaces InstallModeType is supported when conversionCRDs is present/);
  });
});
