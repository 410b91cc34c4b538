import type { GeneratedFile } from '../../../writer/index.js';
import { addResources, removeResources } from './kustomize.js';
import { webhookPort } from './webhook.js';
import { yamlFile } from '../yaml-file.js';
import { managerIngressPolicy } from './extras.js';

/** The kustomization of config/network-policy, which `init` writes and config/default may enable. */
export const networkPolicyKustomization = 'config/network-policy/kustomization.yaml';
const policyFile = 'allow-webhook-traffic.yaml';
/** The policy that admits the API server to the webhook server (kubebuilder's file of the same name). */
export const webhookPolicyPath = `config/network-policy/${policyFile}`;

/**
 * The NetworkPolicy admitting the webhook server's port from any source. The caller is the
 * API server, from the control plane's addresses: no pod or namespace selector matches them,
 * and they differ from cluster to cluster. Without it, enabling config/network-policy (whose
 * metrics policy selects the manager's pods) drops the API server's calls, and with
 * `failurePolicy: Fail` every write of the webhooks' kinds fails.
 */
function webhookPolicy(projectName: string): GeneratedFile {
  return {
    path: webhookPolicyPath,
    ownership: 'generated',
    content: yamlFile(
      [
        'Admits the API server to the webhook server. It calls from the control plane\'s addresses,',
        'which no pod or namespace selector matches, so the port is open to any source: it serves',
        'admission and conversion reviews over TLS only. Written by opgen create webhook.',
      ],
      managerIngressPolicy(projectName, 'allow-webhook-traffic', { ports: [{ port: webhookPort, protocol: 'TCP' }] }),
    ),
  };
}

/**
 * The webhook policy and its entry in config/network-policy's kustomization, for a project
 * with webhooks; nothing when the project has no config/network-policy (`kustomization`, its
 * text now, undefined).
 */
export function webhookNetworkPolicy(projectName: string, kustomization: string | undefined): GeneratedFile[] {
  if (kustomization === undefined) return [];
  return [
    webhookPolicy(projectName),
    { path: networkPolicyKustomization, ownership: 'generated', content: addResources(kustomization, [policyFile], networkPolicyKustomization) },
  ];
}

/** config/network-policy's kustomization `text` without the webhook policy's entry. */
export function withoutWebhookPolicy(text: string): string {
  return removeResources(text, [policyFile], networkPolicyKustomization);
}
