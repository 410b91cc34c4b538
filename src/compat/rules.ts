/**
 * The compatibility rules of `opgen manifests --check`, written from the Kubernetes API
 * conventions ("Changing the API") and crdify's rule set: a change is breaking when an object
 * or a client valid against the released API can be refused, lost or read differently after
 * it; otherwise it is compatible.
 *
 * @module
 */

/** Rules whose changes break stored objects or clients; `--allow-breaking` names them. */
export const breakingRules = {
  'kind-removed': 'a CRD of the released API is gone: its objects and clients are stranded',
  'scope-changed': 'Namespaced ↔ Cluster: every object and client path changes',
  'version-removed': 'a released version is gone: clients of it get 404',
  'version-unserved': 'a released version stopped being served: clients of it get 404',
  'stored-version-removed': 'the released storage version is gone before its objects were migrated',
  'field-removed': 'a field is gone: its stored values are pruned and clients writing it are refused or lose data',
  'type-changed': 'a field changed type: stored values and clients no longer fit',
  'enum-restricted': 'enum values were removed (or an enum added): stored values and clients using them are refused',
  'required-added': 'a field became required: objects without it are refused',
  'minimum-tightened': 'minimum raised (or made exclusive, or added)',
  'maximum-tightened': 'maximum lowered (or made exclusive, or added)',
  'min-length-tightened': 'minLength raised or added',
  'max-length-tightened': 'maxLength lowered or added',
  'min-items-tightened': 'minItems raised or added',
  'max-items-tightened': 'maxItems lowered or added',
  'min-properties-tightened': 'minProperties raised or added',
  'max-properties-tightened': 'maxProperties lowered or added',
  'multiple-of-changed': 'multipleOf added or changed',
  'pattern-changed': 'pattern added or changed: values valid before may be refused',
  'format-changed': 'format added or changed: values valid before may be refused',
  'unique-items-added': 'uniqueItems added: lists with repeats are refused',
  'nullable-removed': 'null is no longer accepted',
  'preserve-unknown-fields-removed': 'unknown fields kept before are now pruned',
  'list-type-changed': 'x-kubernetes-list-type or list-map keys changed: merges and validation change',
  'map-type-changed': 'x-kubernetes-map-type changed: merges change',
  'validation-rule-added': 'a CEL rule was added (or changed) without optionalOldSelf: existing objects and clients may be refused',
  'default-changed': 'a default was changed, removed or added to an existing field: objects read differently',
} as const;

/** Changes that cannot break a stored object or a client; reported, never refused. */
export const compatibleRules = {
  'kind-added': 'a new CRD',
  'version-added': 'a new version',
  'version-served': 'a version is served again',
  'storage-version-changed': 'new objects are stored in the new storage version; older ones need `opgen migrate-storage` before the old version can go',
  'field-added': 'a new optional field',
  'enum-extended': 'enum values added or the enum dropped',
  'required-removed': 'a field is no longer required',
  'bound-loosened': 'a bound was relaxed or dropped',
  'pattern-removed': 'a pattern was dropped',
  'format-removed': 'a format was dropped',
  'validation-rule-removed': 'a CEL rule was dropped',
  'validation-rule-ratcheted': 'a CEL rule was added with optionalOldSelf, so existing objects are judged against their own old values',
  'nullable-added': 'null is accepted',
  'unique-items-removed': 'uniqueItems dropped',
} as const;

export type BreakingRule = keyof typeof breakingRules;
export type CompatibleRule = keyof typeof compatibleRules;
export type Rule = BreakingRule | CompatibleRule;

/** One difference between the released CRD and the generated one. */
export interface Change {
  rule: Rule;
  /** The CRD's Kind. */
  kind: string;
  /** The version the change is in; absent for changes to the whole CRD. */
  version?: string;
  /** Data path of the changed schema node (`spec.items[*].name`); '' for the root or the CRD. */
  path: string;
  /** What changed, in a few words with the old and new values. */
  detail: string;
}

export function isBreaking(rule: Rule): rule is BreakingRule {
  return Object.hasOwn(breakingRules, rule);
}
