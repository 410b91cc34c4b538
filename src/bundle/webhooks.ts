import type { KubeObject } from './objects.js';

/** An entry of the CSV's `spec.webhookdefinitions`. */
export interface WebhookDefinition {
  type: 'ValidatingAdmissionWebhook' | 'MutatingAdmissionWebhook' | 'ConversionWebhook';
  generateName: string;
  deploymentName: string;
  containerPort: number;
  targetPort?: number | string;
  webhookPath?: string;
  admissionReviewVersions?: string[];
  sideEffects?: string;
  failurePolicy?: string;
  matchPolicy?: string;
  objectSelector?: unknown;
  rules?: unknown[];
  timeoutSeconds?: number;
  reinvocationPolicy?: string;
  conversionCRDs?: string[];
}

/** What turning the webhook configurations into definitions leaves. */
export interface FoldedWebhooks {
  definitions: WebhookDefinition[];
  /** The configurations, the Service they call and cert-manager's objects: OLM makes its own. */
  folded: Set<KubeObject>;
  /** What a webhook sets that a definition cannot carry, one sentence each. */
  lost: string[];
}

interface Webhook {
  name: string;
  clientConfig?: { service?: { name: string; path?: string; port?: number } };
  admissionReviewVersions?: string[];
  sideEffects?: string;
  failurePolicy?: string;
  matchPolicy?: string;
  objectSelector?: unknown;
  rules?: unknown[];
  timeoutSeconds?: number;
  reinvocationPolicy?: string;
  namespaceSelector?: unknown;
  matchConditions?: unknown[];
}

const types = {
  ValidatingWebhookConfiguration: 'ValidatingAdmissionWebhook',
  MutatingWebhookConfiguration: 'MutatingAdmissionWebhook',
} as const;

/**
 * OLM serves webhooks itself: it creates the configurations, the Service and the serving
 * certificate from the CSV's webhook definitions, pointed at the manager Deployment. So each
 * webhook of config/webhook becomes a definition, and each CRD converted by a webhook a
 * ConversionWebhook definition; the configurations, their Service and cert-manager's
 * Certificate and Issuer leave the bundle.
 */
export function foldWebhooks(objects: readonly KubeObject[], crds: readonly KubeObject[], deploymentName: string): FoldedWebhooks {
  const folded = new Set<KubeObject>();
  const definitions: WebhookDefinition[] = [];
  const services = new Set<string>();
  const lost: string[] = [];
  for (const config of objects) {
    const type = types[config.kind as keyof typeof types];
    if (!type) continue;
    folded.add(config);
    for (const hook of (config.webhooks ?? []) as Webhook[]) {
      const service = hook.clientConfig?.service;
      if (service) services.add(service.name);
      // OLM's webhook definitions have no field for these: say so rather than drop them unseen.
      if (hook.namespaceSelector) lost.push(`webhook ${hook.name}: OLM sets the namespaceSelector itself, to the namespaces the operator is installed for; the one in config/webhook is not used`);
      if (hook.matchConditions?.length) lost.push(`webhook ${hook.name}: an OLM webhook definition cannot carry matchConditions; OLM registers the webhook without them, so it is called for every object its rules match`);
      definitions.push({
        type,
        generateName: hook.name,
        deploymentName,
        containerPort: 443,
        targetPort: targetPort(objects, service?.name),
        webhookPath: service?.path,
        admissionReviewVersions: hook.admissionReviewVersions,
        sideEffects: hook.sideEffects,
        failurePolicy: hook.failurePolicy,
        matchPolicy: hook.matchPolicy,
        objectSelector: hook.objectSelector,
        rules: hook.rules,
        timeoutSeconds: hook.timeoutSeconds,
        reinvocationPolicy: hook.reinvocationPolicy,
      });
    }
  }
  const converted = crds.filter((crd) => (crd.spec as { conversion?: { strategy?: string } }).conversion?.strategy === 'Webhook');
  if (converted.length) {
    const service = (converted[0]!.spec as { conversion: { webhook?: { clientConfig?: { service?: { name: string; path?: string } } } } }).conversion.webhook
      ?.clientConfig?.service;
    if (service) services.add(service.name);
    definitions.push({
      type: 'ConversionWebhook',
      generateName: `c${deploymentName.replace(/[^a-z0-9-]/g, '')}.kb.io`.slice(0, 63),
      deploymentName,
      containerPort: 443,
      targetPort: targetPort(objects, service?.name),
      webhookPath: service?.path ?? '/convert',
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      conversionCRDs: converted.map((crd) => crd.metadata.name).sort(),
    });
  }
  for (const o of objects) {
    if ((o.kind === 'Service' && services.has(o.metadata.name)) || o.apiVersion.startsWith('cert-manager.io/')) folded.add(o);
  }
  definitions.sort((a, b) => (a.generateName < b.generateName ? -1 : a.generateName > b.generateName ? 1 : 0));
  return { definitions, folded, lost };
}

/** The port the webhook Service sends to on the manager's pod (kubebuilder's 9443 when unknown). */
function targetPort(objects: readonly KubeObject[], service: string | undefined): number | string {
  const found = objects.find((o) => o.kind === 'Service' && o.metadata.name === service);
  const port = (found?.spec as { ports?: { targetPort?: number | string; port?: number }[] } | undefined)?.ports?.[0];
  return port?.targetPort ?? port?.port ?? 9443;
}
