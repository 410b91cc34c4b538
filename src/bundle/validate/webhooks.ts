import type { Csv } from '../base-csv.js';
import type { OwnedCrd } from '../owned.js';
import type { WebhookDefinition } from '../webhooks.js';
import type { BundleObject } from './load.js';
import type { Findings } from './problems.js';

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const types = new Set(['ValidatingAdmissionWebhook', 'MutatingAdmissionWebhook', 'ConversionWebhook']);

/**
 * The CSV's webhook definitions, by OLM's rules: a known type, a unique DNS name, a
 * deployment of the install strategy to serve it, a valid port, what admissionregistration/v1
 * requires of admission webhooks (review versions, side effects), no rule that intercepts
 * OLM's own objects or every object, and conversion only for owned CRDs.
 */
export function checkWebhooks({ object, doc }: BundleObject, findings: Findings): void {
  const spec = (object as unknown as Csv).spec;
  const hooks = spec?.webhookdefinitions;
  if (hooks === undefined || hooks === null) return;
  if (!Array.isArray(hooks)) return findings.error(doc, ['spec', 'webhookdefinitions'], 'spec.webhookdefinitions must be a list');
  const deployments = new Set(((spec.install as { spec?: { deployments?: { name?: string }[] } })?.spec?.deployments ?? []).map((d) => d.name));
  const owned = new Set(((spec.customresourcedefinitions as { owned?: OwnedCrd[] })?.owned ?? []).map((e) => e.name));
  const names = new Set<string>();
  hooks.forEach((hook: Partial<WebhookDefinition>, i) => {
    const path = ['spec', 'webhookdefinitions', i];
    const label = `webhookdefinitions[${i}]${hook.generateName ? ` (${hook.generateName})` : ''}`;
    if (!types.has(hook.type ?? '')) findings.error(doc, path, `${label}.type must be one of ${[...types].join(', ')}`);
    if (typeof hook.generateName !== 'string' || !dnsSubdomain.test(hook.generateName)) findings.error(doc, path, `${label}.generateName must be a DNS subdomain`);
    else if (names.has(hook.generateName)) findings.error(doc, path, `${label}: generateName is used by another webhook definition`);
    else names.add(hook.generateName);
    if (!deployments.has(hook.deploymentName)) findings.error(doc, path, `${label}.deploymentName ${JSON.stringify(hook.deploymentName ?? null)} is not a deployment of the install strategy`);
    if (!Number.isInteger(hook.containerPort) || hook.containerPort! < 1 || hook.containerPort! > 65535) findings.error(doc, path, `${label}.containerPort must be a port (1-65535)`);
    if (!hook.admissionReviewVersions?.length) findings.error(doc, path, `${label}.admissionReviewVersions is empty (v1 is what the API server sends)`);
    if (hook.type !== 'ConversionWebhook') {
      if (hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') findings.error(doc, path, `${label}.sideEffects must be None or NoneOnDryRun`);
      for (const rule of (hook.rules ?? []) as { apiGroups?: string[]; resources?: string[] }[]) {
        const groups = rule.apiGroups ?? [];
        if (groups.includes('operators.coreos.com')) findings.error(doc, path, `${label} intercepts operators.coreos.com: OLM refuses webhooks on its own objects`);
        if (groups.includes('*') && (rule.resources ?? []).includes('*')) findings.error(doc, path, `${label} intercepts every resource of every group, OLM's own too`);
      }
    } else {
      if (!hook.conversionCRDs?.length) findings.error(doc, path, `${label}.conversionCRDs is empty`);
      for (const crd of hook.conversionCRDs ?? []) if (!owned.has(crd)) findings.error(doc, path, `${label} converts ${crd}, which the CSV does not own`);
    }
  });
}
