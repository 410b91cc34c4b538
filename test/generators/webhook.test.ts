import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { UserErrors } from '../../src/errors.js';
import { generateWebhooks } from '../../src/generators/webhook.js';
import type { WebhookSafety } from '../../src/generators/webhook-safety.js';
import type { WebhookConfigurationMarker, WebhookRuleMarker, WrittenJson } from '../../src/markers/types.js';
import { generatedHeader } from '../../src/yaml.js';

/** A cluster-wide project that defines batch.tutorial.kubebuilder.io, as the webhooks below expect. */
const safety: WebhookSafety = { operatorNamespace: 'project-system', namespaced: false, ownGroups: new Set(['batch.tutorial.kubebuilder.io']) };

/** Where `written` pretends the argument's JSON starts on the marker's line. */
const writtenColumn = 40;
function written(value: unknown): WrittenJson {
  return { value, raw: JSON.stringify(value), column: writtenColumn };
}

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
  const [file] = generateWebhooks(markers, safety);
  return parseAllDocuments(file?.content ?? '').map((d) => d.toJS() as Record<string, unknown>);
}

function errorsOf(run: () => unknown): { message: string; hint?: string; line?: number; column?: number }[] {
  try {
    run();
  } catch (error) {
    if (error instanceof UserErrors) {
      return error.errors.map((e) => ({ message: e.message, ...(e.hint ? { hint: e.hint } : {}), line: e.location?.line, column: e.location?.column }));
    }
    throw error;
  }
  throw new Error('expected UserErrors');
}

describe('generateWebhooks', () => {
  it('writes nothing without webhook markers', () => {
    expect(generateWebhooks([], safety)).toEqual([]);
    expect(generateWebhooks([configuration(true, 'named')], safety)).toEqual([]);
  });

  it('writes the kubebuilder tutorial webhooks as controller-gen does', () => {
    const [file] = generateWebhooks([
      webhook(),
      webhook({ mutating: true, name: 'mcronjob-v1.kb.io', path: '/mutate-batch-tutorial-kubebuilder-io-v1-cronjob' }),
    ], safety);
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
      // The rule reaches core and apps types, which the operator writes itself (webhooks.md §5).
      namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['project-system', 'kube-system'] }] },
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
    const [error, ...rest] = errorsOf(() => generateWebhooks([marker], safety));
    expect(rest).toEqual([]);
    expect(error?.message).toContain(message);
    expect(error?.line).toBe(marker.location.line);
  });

  it('rejects two webhooks with one name in a configuration', () => {
    const second = webhook();
    const errors = errorsOf(() => generateWebhooks([webhook(), second, webhook({ mutating: true })], safety));
    expect(errors).toEqual([
      { message: '+kubebuilder:webhook: a second validating webhook named vcronjob-v1.kb.io', hint: 'webhook names must be unique in a configuration', line: second.location.line, column: 4 },
    ]);
  });

  it('rejects two different names for one configuration', () => {
    const errors = errorsOf(() => generateWebhooks([webhook(), configuration(false, 'a'), configuration(false, 'b')], safety));
    expect(errors.map((e) => e.message)).toEqual(['+kubebuilder:webhookconfiguration: the validating webhook configuration is already named a']);
  });

  it.each<[string, Partial<WebhookRuleMarker>, string, number]>([
    ['an unknown selector operator', { namespaceSelector: written({ matchExpressions: [{ key: 'env', operator: 'Equals', values: ['a'] }] }) }, 'namespaceSelector matchExpressions[0] operator "Equals" is not one of In, NotIn, Exists, DoesNotExist', 0],
    ['In without values', { objectSelector: written({ matchExpressions: [{ key: 'env', operator: 'In' }] }) }, 'objectSelector matchExpressions[0] operator In needs values', 0],
    ['Exists with values', { objectSelector: written({ matchExpressions: [{ key: 'env', operator: 'Exists', values: ['x'] }] }) }, 'operator Exists takes no values', 0],
    ['a selector that is a list', { namespaceSelector: written([]) }, 'namespaceSelector must be a JSON object (a LabelSelector)', 0],
    ['a misspelt selector field', { namespaceSelector: written({ matchLabel: { a: 'b' } }) }, 'has unknown field "matchLabel"', 0],
    ['a label key with two slashes', { objectSelector: written({ matchLabels: { 'a/b/c': 'x' } }) }, 'matchLabels key "a/b/c" has more than one "/"', 0],
    ['a label value with a space', { objectSelector: written({ matchLabels: { app: 'my app' } }) }, 'matchLabels["app"] must be a label value', 0],
    ['match conditions that are an object', { matchConditions: written({ name: 'a', expression: 'true' }) }, 'matchConditions must be a JSON list', 0],
    ['a match condition without a name', { matchConditions: written([{ expression: 'true' }]) }, 'matchConditions [0] needs a name', 0],
    ['two match conditions with one name', { matchConditions: written([{ name: 'a', expression: 'true' }, { name: 'a', expression: 'false' }]) }, 'matchConditions [1] name "a" is used twice', 0],
    ['a match condition with an unknown field', { matchConditions: written([{ name: 'a', expression: 'true', message: 'x' }]) }, 'matchConditions [0] has unknown field "message"', 0],
    // The column points at the `)` CEL did not expect: the literal starts 26 characters into the JSON, the `)` is its 29th.
    ['a CEL syntax error', { matchConditions: written([{ name: 'a', expression: "request.name.startsWith('x'))" }]) }, 'matchConditions [0] expression "a" is not valid CEL', 26 + 29],
  ])('rejects %s at the argument', (_, fields, message, column) => {
    const marker = webhook(fields);
    const [error, ...rest] = errorsOf(() => generateWebhooks([marker], safety));
    expect(rest).toEqual([]);
    expect(error?.message).toContain(message);
    expect(error?.line).toBe(marker.location.line);
    expect(error?.column).toBe(writtenColumn + column);
  });

  it('writes the selectors and match conditions of the marker as the API objects', () => {
    const [config] = documents(
      webhook({
        namespaceSelector: written({ matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] }),
        objectSelector: written({ matchExpressions: [{ key: 'skip-webhook', operator: 'DoesNotExist', values: [] }] }),
        matchConditions: written([
          { expression: "request.resource.resource != 'leases'", name: 'not-leases' },
          { name: 'example.com/not-dry-run', expression: '!has(request.dryRun) || !request.dryRun' },
        ]),
      }),
    );
    const [entry] = config?.webhooks as Record<string, unknown>[];
    expect(entry).toMatchObject({
      matchConditions: [
        { name: 'not-leases', expression: "request.resource.resource != 'leases'" },
        { name: 'example.com/not-dry-run', expression: '!has(request.dryRun) || !request.dryRun' },
      ],
      namespaceSelector: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }], matchLabels: { env: 'prod' } },
      objectSelector: { matchExpressions: [{ key: 'skip-webhook', operator: 'DoesNotExist' }] },
    });
    // The API's order: matchConditions after failurePolicy, the selectors after name, as controller-gen sorts keys.
    expect(Object.keys(entry!)).toEqual(['admissionReviewVersions', 'clientConfig', 'failurePolicy', 'matchConditions', 'name', 'namespaceSelector', 'objectSelector', 'rules', 'sideEffects']);
  });
});

describe('the safety selectors of generated webhooks', () => {
  const pods: Partial<WebhookRuleMarker> = { groups: ['core'], resources: ['pods'], name: 'vpod-v1.kb.io', path: '/validate--v1-pod' };
  const entry = (marker: WebhookRuleMarker, options: Partial<WebhookSafety> = {}) => {
    const [file] = generateWebhooks([marker], { ...safety, ...options });
    const [config] = parseAllDocuments(file?.content ?? '').map((d) => d.toJS() as { webhooks: Record<string, unknown>[] });
    return config!.webhooks[0]!;
  };
  const excluded = { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['project-system', 'kube-system'] };

  it("leaves a cluster-wide project's webhook on its own kinds as controller-gen writes it", () => {
    const hook = entry(webhook());
    expect(hook.namespaceSelector).toBeUndefined();
    expect(hook.objectSelector).toBeUndefined();
  });

  it("keeps a webhook on Pods out of the operator's namespace and kube-system", () => {
    expect(entry(webhook(pods)).namespaceSelector).toEqual({ matchExpressions: [excluded] });
  });

  it('treats every group the project does not define, and *, as foreign', () => {
    expect(entry(webhook({ groups: ['apps'] })).namespaceSelector).toEqual({ matchExpressions: [excluded] });
    expect(entry(webhook({ groups: ['*'] })).namespaceSelector).toEqual({ matchExpressions: [excluded] });
    expect(entry(webhook({ groups: ['cert-manager.io'] })).namespaceSelector).toEqual({ matchExpressions: [excluded] });
  });

  it("narrows the marker's own namespaceSelector rather than replacing it", () => {
    const hook = entry(webhook({ ...pods, namespaceSelector: written({ matchLabels: { team: 'a' }, matchExpressions: [{ key: 'env', operator: 'Exists' }] }) }));
    expect(hook.namespaceSelector).toEqual({ matchExpressions: [{ key: 'env', operator: 'Exists' }, excluded], matchLabels: { team: 'a' } });
  });

  it('excludes the namespace config/default names, once when it is kube-system', () => {
    expect(entry(webhook(pods), { operatorNamespace: 'ops' }).namespaceSelector).toEqual({
      matchExpressions: [{ ...excluded, values: ['ops', 'kube-system'] }],
    });
    expect(entry(webhook(pods), { operatorNamespace: 'kube-system' }).namespaceSelector).toEqual({
      matchExpressions: [{ ...excluded, values: ['kube-system'] }],
    });
  });

  it("limits a namespaced project's webhooks to its namespace", () => {
    const hook = entry(webhook(), { namespaced: true });
    expect(hook.namespaceSelector).toEqual({ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['project-system'] }] });
    expect(hook.objectSelector).toBeUndefined();
  });

  it("keeps a namespaced project's webhook on Pods off the manager's own objects", () => {
    const hook = entry(webhook(pods), { namespaced: true });
    expect(hook.namespaceSelector).toEqual({ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['project-system'] }] });
    expect(hook.objectSelector).toEqual({ matchExpressions: [{ key: 'control-plane', operator: 'NotIn', values: ['controller-manager'] }] });
  });
});
