import type { ProjectConfig } from '../../../project/model.js';
import { certificateMode } from '../../../project/webhooks.js';
import { conversionCrds, webhookResources } from '../webhook.js';

/** The file of kustomize replacements config/default/kustomization.yaml lists (as `replacements: - path:`). */
export const webhookReplacementsFile = 'webhook_replacements.yaml';

/** The `replacements` entries config/default/kustomization.yaml lists for the project's webhooks. */
export function defaultReplacements(project: ProjectConfig): { path: string }[] {
  return webhookResources(project).length ? [{ path: webhookReplacementsFile }] : [];
}

const service = { kind: 'Service', version: 'v1', name: 'webhook-service' };
const certificate = { kind: 'Certificate', group: 'cert-manager.io', version: 'v1', name: 'serving-cert' };
const manager = { kind: 'Deployment', group: 'apps', version: 'v1', name: 'controller-manager' };
const managerEnv = (name: string) => `.spec.template.spec.containers.[name=manager].env.[name=${name}].value`;

/**
 * The replacements that write the names and namespace config/default gives the objects
 * (whatever its `namespace:` and `namePrefix:` say) where kustomize would not: into the
 * Certificate's DNS names and the CA injection annotations (cert-manager), or into the
 * environment the manager reads and the resourceNames of its certificate RBAC (built-in).
 * kustomize runs replacements after the namespace and prefix, so the values are the final ones.
 */
export function webhookReplacements(project: ProjectConfig, clusterRuleResources: readonly string[]): unknown[] {
  const entries = webhookResources(project);
  const mutating = entries.some(({ webhooks }) => webhooks.defaulting);
  const validating = entries.some(({ webhooks }) => webhooks.validation);
  const certManager = certificateMode(project) === 'cert-manager';
  // The rule of the built-in certificates' ClusterRole that names a kind of webhook configuration.
  const certificateRole = { kind: 'ClusterRole', group: 'rbac.authorization.k8s.io', version: 'v1', name: 'webhook-certs-role' };
  const configuration = (kind: string, env: string, resource: string) => ({
    source: { kind, group: 'admissionregistration.k8s.io', version: 'v1', fieldPath: '.metadata.name' },
    targets: [
      { select: manager, fieldPaths: [managerEnv(env)] },
      ...(certManager ? [] : [{ select: certificateRole, fieldPaths: [`.rules.${clusterRuleResources.indexOf(resource)}.resourceNames.0`] }]),
    ],
  });
  const names = [
    { source: { ...service, fieldPath: '.metadata.name' }, targets: [{ select: manager, fieldPaths: [managerEnv('WEBHOOK_SERVICE_NAME')] }] },
    ...(mutating ? [configuration('MutatingWebhookConfiguration', 'MUTATING_WEBHOOK_CONFIGURATION', 'mutatingwebhookconfigurations')] : []),
    ...(validating ? [configuration('ValidatingWebhookConfiguration', 'VALIDATING_WEBHOOK_CONFIGURATION', 'validatingwebhookconfigurations')] : []),
  ];
  if (!certManager) return names;
  const dnsNames = (index: number) => ({ select: certificate, fieldPaths: ['.spec.dnsNames.0', '.spec.dnsNames.1'], options: { delimiter: '.', index, create: true } });
  const injected = [
    ...(mutating ? [{ kind: 'MutatingWebhookConfiguration' }] : []),
    ...(validating ? [{ kind: 'ValidatingWebhookConfiguration' }] : []),
    ...conversionCrds(project).map((name) => ({ kind: 'CustomResourceDefinition', name })),
  ];
  const annotation = (index: number) =>
    injected.map((select) => ({ select, fieldPaths: ['.metadata.annotations.[cert-manager.io/inject-ca-from]'], options: { delimiter: '/', index, create: true } }));
  return [
    ...names,
    { source: { ...service, fieldPath: '.metadata.name' }, targets: [dnsNames(0)] },
    { source: { ...service, fieldPath: '.metadata.namespace' }, targets: [dnsNames(1)] },
    { source: { ...certificate, fieldPath: '.metadata.namespace' }, targets: annotation(0) },
    { source: { ...certificate, fieldPath: '.metadata.name' }, targets: annotation(1) },
  ];
}
