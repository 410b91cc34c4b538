/**
 * The selectors opgen adds to every generated webhook so that it cannot lock the operator
 * out of its own cluster (webhooks.md §5). kubebuilder's "webhook bootstrap problem": a
 * webhook on Pods with `failurePolicy: Fail` refuses the manager's own Pod while the
 * manager, which serves the webhook, is not running, so it never starts again.
 *
 * @module
 */
import type { LabelSelector, LabelSelectorRequirement } from './webhook-selectors.js';

/** What the defaults depend on: where the operator runs and what it defines. */
export interface WebhookSafety {
  /** The namespace the operator runs in: config/default's `namespace`, `<project>-system` by default. */
  operatorNamespace: string;
  /** PROJECT `namespaced: true`: the operator watches only its own namespace. */
  namespaced: boolean;
  /** The API groups of the CRDs the project defines; every other group is a type it does not own. */
  ownGroups: ReadonlySet<string>;
}

/** The label the API server puts on every Namespace, holding its name. */
const namespaceNameLabel = 'kubernetes.io/metadata.name';
/** The label config/manager puts on the manager's Deployment and Pods. */
const managerLabel: LabelSelectorRequirement = { key: 'control-plane', operator: 'NotIn', values: ['controller-manager'] };

/**
 * True when a webhook's rule reaches types the project does not define (core types such as
 * Pods, other built-in or external groups, or `*`): the types the operator itself writes.
 */
export function reachesForeignTypes(groups: readonly string[], safety: WebhookSafety): boolean {
  return groups.some((group) => group === '*' || !safety.ownGroups.has(group === 'core' ? '' : group));
}

/**
 * The selectors a webhook is generated with: the ones its marker names, each narrowed by
 * the defaults. A namespaced project's webhooks see only its namespace. A webhook on types
 * the project does not define skips the operator's namespace and kube-system; in a
 * namespaced project, whose one namespace is the operator's, it skips the manager's own
 * objects by their `control-plane` label instead.
 */
export function safeSelectors(
  groups: readonly string[],
  written: { namespaceSelector?: LabelSelector; objectSelector?: LabelSelector },
  safety: WebhookSafety,
): { namespaceSelector?: LabelSelector; objectSelector?: LabelSelector } {
  const foreign = reachesForeignTypes(groups, safety);
  const namespaceDefaults: LabelSelectorRequirement[] = [];
  const objectDefaults: LabelSelectorRequirement[] = [];
  if (safety.namespaced) {
    namespaceDefaults.push({ key: namespaceNameLabel, operator: 'In', values: [safety.operatorNamespace] });
    if (foreign) objectDefaults.push(managerLabel);
  } else if (foreign) {
    const excluded = [...new Set([safety.operatorNamespace, 'kube-system'])];
    namespaceDefaults.push({ key: namespaceNameLabel, operator: 'NotIn', values: excluded });
  }
  const namespaceSelector = narrowed(written.namespaceSelector, namespaceDefaults);
  const objectSelector = narrowed(written.objectSelector, objectDefaults);
  return { ...(namespaceSelector ? { namespaceSelector } : {}), ...(objectSelector ? { objectSelector } : {}) };
}

/** The selector with the requirements added (AND) that it does not already hold. */
function narrowed(selector: LabelSelector | undefined, requirements: readonly LabelSelectorRequirement[]): LabelSelector | undefined {
  if (requirements.length === 0) return selector;
  const existing = selector?.matchExpressions ?? [];
  const same = (a: LabelSelectorRequirement, b: LabelSelectorRequirement) => JSON.stringify(a) === JSON.stringify(b);
  const added = requirements.filter((r) => !existing.some((e) => same(e, r)));
  return { matchExpressions: [...existing, ...added], ...(selector?.matchLabels ? { matchLabels: selector.matchLabels } : {}) };
}
