import { UserError, UserErrors } from '../errors.js';
import type { WebhookConfigurationMarker, WebhookMarker, WebhookRuleMarker } from '../markers/types.js';
import type { GeneratedFile } from '../writer/index.js';
import { generatedHeader, toYaml } from '../yaml.js';
import { safeSelectors, type WebhookSafety } from './webhook-safety.js';
import { readLabelSelector, readMatchConditions } from './webhook-selectors.js';

const admissionApiVersion = 'admissionregistration.k8s.io/v1';
const operations: Record<string, string> = { create: 'CREATE', update: 'UPDATE', delete: 'DELETE', connect: 'CONNECT', '*': '*' };
const failurePolicies: Record<string, string> = { fail: 'Fail', ignore: 'Ignore' };
const sideEffectClasses: Record<string, string> = { none: 'None', noneondryrun: 'NoneOnDryRun' };
const matchPolicies: Record<string, string> = { exact: 'Exact', equivalent: 'Equivalent' };
const reinvocationPolicies: Record<string, string> = { never: 'Never', ifneeded: 'IfNeeded' };
const qualifiedName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?){2,}$/;

/**
 * `config/webhook/manifests.yaml` from the `+kubebuilder:webhook` markers, as controller-gen
 * writes it: a MutatingWebhookConfiguration `mutating-webhook-configuration` and a
 * ValidatingWebhookConfiguration `validating-webhook-configuration` (renamed by
 * `+kubebuilder:webhookconfiguration`), each present only when it has webhooks, its
 * webhooks sorted by name and pointing at the `webhook-service` in `system` (or the URL,
 * or the service the marker names). Nothing when there is no webhook marker.
 *
 * Beyond controller-gen: `namespaceSelector`, `objectSelector` and `matchConditions` from the
 * marker, and the selectors of {@link safeSelectors} that keep a webhook from blocking the
 * operator's own namespace (webhooks.md §5).
 *
 * @throws UserErrors for markers the API server would reject (side effects `Some` or
 *   `Unknown`, a timeout outside 1–30 s, an unknown verb or policy, a name that is not a
 *   domain of three or more labels, the same name twice in one configuration, …), each at
 *   its marker; a bad selector or match condition at its argument, a CEL syntax error at
 *   its character.
 */
export function generateWebhooks(markers: readonly WebhookMarker[], safety: WebhookSafety): GeneratedFile[] {
  const rules = markers.filter((m): m is WebhookRuleMarker => m.marker === 'webhook');
  const configurations = markers.filter((m): m is WebhookConfigurationMarker => m.marker === 'webhookconfiguration');
  const errors: UserError[] = [];
  const names = {
    mutating: configurationName(configurations, true, errors) ?? 'mutating-webhook-configuration',
    validating: configurationName(configurations, false, errors) ?? 'validating-webhook-configuration',
  };
  const webhooks = rules.map((marker) => ({ marker, webhook: toWebhook(marker, safety, errors) }));
  for (const mutating of [true, false]) {
    const seen = new Set<string>();
    for (const { marker } of webhooks.filter((w) => w.marker.mutating === mutating)) {
      if (seen.has(marker.name)) {
        const type = mutating ? 'mutating' : 'validating';
        errors.push(markerError(marker, `a second ${type} webhook named ${marker.name}`, 'webhook names must be unique in a configuration'));
      }
      seen.add(marker.name);
    }
  }
  if (errors.length) throw new UserErrors(errors);
  if (rules.length === 0) return [];

  const documents = (['mutating', 'validating'] as const).flatMap((type) => {
    const entries = webhooks
      .filter(({ marker }) => marker.mutating === (type === 'mutating'))
      .map(({ webhook }) => webhook)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (entries.length === 0) return [];
    return [
      {
        apiVersion: admissionApiVersion,
        kind: type === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
        metadata: { name: names[type] },
        webhooks: entries,
      },
    ];
  });
  return [{ path: 'config/webhook/manifests.yaml', content: toYaml(documents, { header: generatedHeader }), ownership: 'generated' }];
}

function markerError(marker: WebhookMarker, message: string, hint?: string): UserError {
  return new UserError(`+kubebuilder:${marker.marker}: ${message}`, marker.location, hint);
}

function configurationName(markers: readonly WebhookConfigurationMarker[], mutating: boolean, errors: UserError[]): string | undefined {
  const named = markers.filter((m) => m.mutating === mutating && m.name !== undefined);
  const [first, ...others] = named;
  for (const other of others) {
    if (other.name !== first?.name) {
      errors.push(markerError(other, `the ${mutating ? 'mutating' : 'validating'} webhook configuration is already named ${first?.name}`));
    }
  }
  if (first?.name !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(first.name)) {
    errors.push(markerError(first, `${JSON.stringify(first.name)} is not a valid object name (lower-case DNS subdomain)`));
  }
  return first?.name;
}

/** One webhook entry, fields in controller-gen's (alphabetical) order; problems go to `errors`. */
function toWebhook(marker: WebhookRuleMarker, safety: WebhookSafety, errors: UserError[]): Record<string, unknown> & { name: string } {
  const fail = (message: string, hint?: string) => errors.push(markerError(marker, message, hint));
  const pick = (table: Record<string, string>, value: string | undefined, what: string, allowed: string) => {
    if (value === undefined) return undefined;
    const found = table[value.toLowerCase()];
    if (found === undefined) fail(`${what} ${JSON.stringify(value)} is not one of ${allowed}`);
    return found;
  };

  if (!qualifiedName.test(marker.name)) {
    fail(`name ${JSON.stringify(marker.name)} must be a domain of at least three labels`, 'e.g. mdemovolume-v1.kb.io');
  }
  const failurePolicy = pick(failurePolicies, marker.failurePolicy, 'failurePolicy', 'Fail, Ignore');
  const matchPolicy = pick(matchPolicies, marker.matchPolicy, 'matchPolicy', 'Exact, Equivalent');
  const reinvocationPolicy = pick(reinvocationPolicies, marker.reinvocationPolicy, 'reinvocationPolicy', 'Never, IfNeeded');
  if (reinvocationPolicy !== undefined && !marker.mutating) fail('reinvocationPolicy only applies to mutating webhooks');
  let sideEffects: string | undefined;
  if (marker.sideEffects === undefined) fail('needs sideEffects=', 'None, or NoneOnDryRun for a webhook that checks dryRun');
  else if (['some', 'unknown'].includes(marker.sideEffects.toLowerCase())) {
    fail(`sideEffects=${marker.sideEffects} is not allowed by admissionregistration.k8s.io/v1`, 'use None or NoneOnDryRun');
  } else sideEffects = pick(sideEffectClasses, marker.sideEffects, 'sideEffects', 'None, NoneOnDryRun');
  if (marker.timeoutSeconds !== undefined && (marker.timeoutSeconds < 1 || marker.timeoutSeconds > 30)) {
    fail(`timeoutSeconds=${marker.timeoutSeconds} must be between 1 and 30`);
  }
  const unknownVerbs = marker.verbs.filter((verb) => operations[verb.toLowerCase()] === undefined);
  if (unknownVerbs.length) fail(`verbs ${unknownVerbs.join(', ')} are not admission operations`, 'use create, update, delete, connect or *');
  const unsupported = (marker.webhookVersions ?? []).filter((v) => v !== 'v1');
  if (unsupported.length) fail(`webhookVersions ${unsupported.join(', ')} cannot be generated; only v1 exists since Kubernetes 1.22`);
  if (marker.path !== undefined && !marker.path.startsWith('/')) fail(`path ${JSON.stringify(marker.path)} must start with /`);
  if (marker.url !== undefined && !marker.url.startsWith('https://')) fail(`url ${JSON.stringify(marker.url)} must use https://`);

  const written = {
    namespaceSelector: marker.namespaceSelector && readLabelSelector('namespaceSelector', marker.namespaceSelector, marker.location, errors),
    objectSelector: marker.objectSelector && readLabelSelector('objectSelector', marker.objectSelector, marker.location, errors),
  };
  const matchConditions = marker.matchConditions && readMatchConditions(marker.matchConditions, marker.location, errors);
  const { namespaceSelector, objectSelector } = safeSelectors(marker.groups, written, safety);

  const clientConfig =
    marker.url !== undefined
      ? { url: marker.url }
      : {
          service: {
            name: marker.serviceName ?? 'webhook-service',
            namespace: marker.serviceNamespace ?? 'system',
            path: marker.path,
            ...(marker.servicePort !== undefined ? { port: marker.servicePort } : {}),
          },
        };
  return {
    admissionReviewVersions: marker.admissionReviewVersions,
    clientConfig,
    failurePolicy,
    ...(matchConditions?.length ? { matchConditions } : {}),
    ...(matchPolicy !== undefined ? { matchPolicy } : {}),
    name: marker.name,
    ...(namespaceSelector ? { namespaceSelector } : {}),
    ...(objectSelector ? { objectSelector } : {}),
    ...(reinvocationPolicy !== undefined ? { reinvocationPolicy } : {}),
    rules: [
      {
        apiGroups: marker.groups.map((group) => (group === 'core' ? '' : group)),
        apiVersions: marker.versions,
        operations: marker.verbs.map((verb) => operations[verb.toLowerCase()] ?? verb),
        resources: marker.resources,
      },
    ],
    sideEffects,
    ...(marker.timeoutSeconds !== undefined ? { timeoutSeconds: marker.timeoutSeconds } : {}),
  };
}
