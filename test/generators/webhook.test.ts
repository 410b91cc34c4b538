import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { UserErrors } from '../../src/errors.js';
import { generateWebhooks } from '../../src/generators/webhook.js';
import type { WebhookConfigurationMarker, WebhookRuleMarker } from '../../src/markers/types.js';
import { generatedHeader } from '../../src/yaml.js';

let line = 0;
function webhook(fields: Partial<WebhookRuleMarker> = {}): WebhookRuleMarker {
  return {
    marker: 'webhook',
    mutating: false,
    failurePolicy: 'fail',
    sideEffects: 'None',
    groups: ['batch.tutorial.kubebuilder.io'],
    resources: ['cronjobs'],
    verbs: ['create', 'update'],
    versions: ['v1'],
    name: 'vcronjob-v1.kb.io',
    path: '/validate-batch-tutorial-kubebuilder-io-v1-cronjob',
    admissionReviewVersions: ['v1'],
    location: { file: 'src/webhooks/cronjob_webhook.ts', line: ++line, column: 4 },
    ...fields,
  };
}

function configuration(mutating: boolean, name: string): WebhookConfigurationMarker {
  return { marker: 'webhookconfiguration', mutating, name, location: { file: 'src/webhooks/config.ts', line: ++line, column: 4 } };
}

function documents(...markers: Parameters<typeof generateWebhooks>[0]): Record<string, unknown>[] {
  const [file] = generateWebhooks(markers);
  return parseAllDocuments(file?.content ?? '').map((d) => d.toJS() as Record<string, unknown>);
}

function errorsOf(run: () => unknown): { message: string; hint?: string; line?: number }[] {
  try {
    run();
  } catch (error) {
    if (error instanceof UserErrors) return error.errors.map((e) => ({ message: e.message, ...(e.hint ? { hint: e.hint } : {}), line: e.location?.line }));
    throw error;
  }
  throw new Error('expected UserErrors');
}

describe('generateWebhooks', () => {
  it('writes nothing without webhook markers', () => {
    expect(generateWebhooks([])).toEqual([]);
    expect(generateWebhooks([configuration(true, 'named')])).toEqual([]);
  });

  it('writes the kubebuilder tutorial webhooks as controller-gen does', () => {
    const [file] = generateWebhooks([
      webhook(),
      webhook({ mutating: true, name: 'mcronjob-v1.kb.io', path: '/mutate-batch-tutorial-kubebuilder-io-v1-cronjob' }),
    ]);
    expect(file).toMatchObject({ path: 'config/webhook/manifests.yaml', ownership: 'generated' });
    expect(file?.content).toBe(
      [
        `# ${generatedHeader}`,
        '---',
        'apiVersion: admissionregistration.k8s.io/v1',
        'kind: MutatingWebhookConfiguration',
        'metadata:',
        '  name: mutating-webhook-configuration',
        'webhooks:',
        '  - admissionReviewVersions:',
        '      - v1',
        '    clientConfig:',
        '      service:',
        '        name: webhook-service',
        '        namespace: system',
        '        path: /mutate-batch-tutorial-kubebuilder-io-v1-cronjob',
        '    failurePolicy: Fail',
        '    name: mcronjob-v1.kb.io',
        '    rules:',
        '      - apiGroups:',
        '          - batch.tutorial.kubebuilder.io',
        '        apiVersions:',
        '          - v1',
        '        operations:',
        '          - CREATE',
        '          - UPDATE',
        '        resources:',
        '          - cronjobs',
        '    sideEffects: None',
        '---',
        'apiVersion: admissionregistration.k8s.io/v1',
        'kind: ValidatingWebhookConfiguration',
        'metadata:',
        '  name: validating-webhook-configuration',
        'webhooks:',
        '  - admissionReviewVersions:',
        '      - v1',
        '    clientConfig:',
        '      service:',
        '        name: webhook-service',
        '        namespace: system',
        '        path: /validate-batch-tutorial-kubebuilder-io-v1-cronjob',
        '    failurePolicy: Fail',
        '    name: vcronjob-v1.kb.io',
        '    rules:',
        '      - apiGroups:',
        '          - batch.tutorial.kubebuilder.io',
        '        apiVersions:',
        '          - v1',
        '        operations:',
        '          - CREATE',
        '          - UPDATE',
        '        resources:',
        '          - cronjobs',
        '    sideEffects: None',
        '',
      ].join('\n'),
    );
  });

  it('carries every optional field of the marker, normalized for the API', () => {
    const [config] = documents(
      webhook({
        mutating: true,
        name: 'default.cronjob.testdata.kubebuilder.io',
        failurePolicy: 'ignore',
        matchPolicy: 'equivalent',
        sideEffects: 'noneondryrun',
        timeoutSeconds: 10,
        reinvocationPolicy: 'IfNeeded',
        groups: ['core', 'apps'],
        verbs: ['Create', 'delete', 'CONNECT', '*'],
        admissionReviewVersions: ['v1', 'v1beta1'],
        serviceName: 'custom',
        serviceNamespace: 'webhooks',
        servicePort: 9443,
      }),
    );
    expect((config?.webhooks as unknown[])[0]).toEqual({
      admissionReviewVersions: ['v1', 'v1beta1'],
      clientConfig: { service: { name: 'custom', namespace: 'webhooks', path: '/validate-batch-tutorial-kubebuilder-io-v1-cronjob', port: 9443 } },
      failurePolicy: 'Ignore',
      matchPolicy: 'Equivalent',
      name: 'default.cronjob.testdata.kubebuilder.io',
      rules: [{ apiGroups: ['', 'apps'], apiVersions: ['v1'], operations: ['CREATE', 'DELETE', 'CONNECT', '*'], resources: ['cronjobs'] }],
      sideEffects: 'NoneOnDryRun',
      timeoutSeconds: 10,
      reinvocationPolicy: 'IfNeeded',
    });
  });

  it('points at a URL instead of the service when the marker gives one', () => {
    const [config] = documents(webhook({ path: undefined, url: 'https://somewebhook:9443/validate' }));
    expect((config?.webhooks as { clientConfig: unknown }[])[0]?.clientConfig).toEqual({ url: 'https://somewebhook:9443/validate' });
  });

  it('sorts webhooks by name and omits a configuration without webhooks', () => {
    const docs = documents(webhook({ name: 'vdeployment.kb.example.io' }), webhook({ name: 'vcronjoblist.kb.example.io' }), webhook({ name: 'vcronjob.kb.example.io' }));
    expect(docs.map((d) => d.kind)).toEqual(['ValidatingWebhookConfiguration']);
    expect((docs[0]?.webhooks as { name: string }[]).map((w) => w.name)).toEqual([
      'vcronjob.kb.example.io',
      'vcronjoblist.kb.example.io',
      'vdeployment.kb.example.io',
    ]);
  });

  it('names the configurations as +kubebuilder:webhookconfiguration says', () => {
    const docs = documents(webhook(), webhook({ mutating: true, name: 'm.kb.example.io' }), configuration(true, 'foo'), configuration(false, 'bar'));
    expect(docs.map((d) => (d.metadata as { name: string }).name)).toEqual(['foo', 'bar']);
  });

  it.each<[string, Partial<WebhookRuleMarker>, string]>([
    ['side effects Some', { sideEffects: 'Some' }, 'sideEffects=Some is not allowed by admissionregistration.k8s.io/v1'],
    ['side effects Unknown', { sideEffects: 'unknown' }, 'sideEffects=unknown is not allowed'],
    ['no side effects', { sideEffects: undefined }, 'needs sideEffects='],
    ['an unknown failure policy', { failurePolicy: 'retry' }, 'failurePolicy "retry" is not one of Fail, Ignore'],
    ['an unknown match policy', { matchPolicy: 'fuzzy' }, 'matchPolicy "fuzzy" is not one of Exact, Equivalent'],
    ['a timeout above 30 s', { timeoutSeconds: 31 }, 'timeoutSeconds=31 must be between 1 and 30'],
    ['a timeout of 0', { timeoutSeconds: 0 }, 'timeoutSeconds=0 must be between 1 and 30'],
    ['an unknown verb', { verbs: ['create', 'patch'] }, 'verbs patch are not admission operations'],
    ['a short name', { name: 'cronjob.io' }, 'name "cronjob.io" must be a domain of at least three labels'],
    ['a reinvocation policy on a validating webhook', { reinvocationPolicy: 'Never' }, 'reinvocationPolicy only applies to mutating webhooks'],
    ['v1beta1 configurations', { webhookVersions: ['v1', 'v1beta1'] }, 'webhookVersions v1beta1 cannot be generated'],
    ['a plain http URL', { path: undefined, url: 'http://example.com/validate' }, 'must use https://'],
    ['a relative path', { path: 'validate' }, 'path "validate" must start with /'],
  ])('rejects %s at the marker', (_, fields, message) => {
    const marker = webhook(fields);
    const [error, ...rest] = errorsOf(() => generateWebhooks([marker]));
    expect(rest).toEqual([]);
    expect(error?.message).toContain(message);
    expect(error?.line).toBe(marker.location.line);
  });

  it('rejects two webhooks with one name in a configuration', () => {
    const second = webhook();
    const errors = errorsOf(() => generateWebhooks([webhook(), second, webhook({ mutating: true })]));
    expect(errors).toEqual([
      { message: '+kubebuilder:webhook: a second validating webhook named vcronjob-v1.kb.io', hint: 'webhook names must be unique in a configuration', line: second.location.line },
    ]);
  });

  it('rejects two different names for one configuration', () => {
    const errors = errorsOf(() => generateWebhooks([webhook(), configuration(false, 'a'), configuration(false, 'b')]));
    expect(errors.map((e) => e.message)).toEqual(['+kubebuilder:webhookconfiguration: the validating webhook configuration is already named a']);
  });
});
