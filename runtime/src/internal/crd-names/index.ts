/**
 * The API server's rule for the names of the CRDs of one group (apiextensions-apiserver's
 * NamingConditionController): a CRD's plural, singular and short names must not be a
 * resource name another CRD of the group already has (its plural, singular or a short
 * name), and its kind and list kind must not be another's kind or list kind. A CRD that
 * breaks it gets `NamesAccepted=False` and is never established. One home for the rule: the
 * CLI checks `create api` and `opgen manifests` with it, and the memory cluster accepts a
 * CRD's names with it.
 *
 * Not part of opgen's public API: its shape may change in any release.
 *
 * @example
 * import { defaultedNames, nameConflict } from '@opgen/runtime/internal/crd-names';
 * const clash = nameConflict(defaultedNames({ kind: 'WidgetList', plural: 'widgetlists' }), [defaultedNames({ kind: 'Widget', plural: 'widgets' })]);
 * // clash?.reason === 'KindConflict'
 *
 * @module
 */

/** A CRD's `spec.names`, with the API server's defaults applied (singular, list kind). */
export interface CrdNames {
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  shortNames?: readonly string[];
}

/** Which name clashes, with the condition reason the API server gives it. */
export interface NameConflict {
  reason: 'PluralConflict' | 'SingularConflict' | 'ShortNamesConflict' | 'KindConflict' | 'ListKindConflict';
  /** The name that is taken. */
  name: string;
  /** The API server's message: `"<name>" is already in use`. */
  message: string;
  /** The other CRD's names that hold it. */
  holder: CrdNames;
}

/** `names` with the API server's defaults: singular the lower-case kind, list kind `<kind>List`. */
export function defaultedNames(names: { kind: string; plural: string; listKind?: string; singular?: string; shortNames?: readonly string[] }): CrdNames {
  return { ...names, listKind: names.listKind ?? `${names.kind}List`, singular: names.singular ?? names.kind.toLowerCase() };
}

/** A name check of the naming controller: which field, the name asked for, the names it may not be. */
type NameCheck = [NameConflict['reason'], string, (n: CrdNames) => string[]];

const resourceNames = (n: CrdNames): string[] => [n.plural, n.singular, ...(n.shortNames ?? [])];
const kindNames = (n: CrdNames): string[] => [n.kind, n.listKind];

/** Every name of `candidate` another CRD of the group holds, in the naming controller's order. */
function conflicts(checks: NameCheck[], others: readonly CrdNames[]): NameConflict[] {
  const found: NameConflict[] = [];
  for (const [reason, name, taken] of checks) {
    const holder = others.find((other) => taken(other).includes(name));
    if (holder) found.push({ reason, name, message: `"${name}" is already in use`, holder });
  }
  return found;
}

/**
 * The first name of `candidate` another CRD of the same group (`others`, with names already
 * accepted) holds, checked in the naming controller's order (plural, singular, short names,
 * kind, list kind); undefined when the API server would accept every name.
 *
 * @example
 * nameConflict(defaultedNames({ kind: 'WidgetList', plural: 'widgetlists' }), [defaultedNames({ kind: 'Widget', plural: 'widgets' })]);
 * // → { reason: 'KindConflict', name: 'WidgetList', message: '"WidgetList" is already in use', … }
 */
export function nameConflict(candidate: CrdNames, others: readonly CrdNames[]): NameConflict | undefined {
  return acceptNames(candidate, undefined, others).conflict;
}

/** The names a CRD's status accepts (`status.acceptedNames`); a refused name keeps its earlier value, or none. */
export type AcceptedNames = Partial<CrdNames> & { kind: string; plural: string };

/**
 * What the naming controller accepts of `requested`, given what this CRD had accepted
 * before (`accepted`) and the accepted names of the group's other CRDs: a name equal to
 * its accepted one, or held by no other CRD, is accepted; a refused one keeps its earlier
 * accepted value. `conflict` is the last refusal, whose reason and message the API server
 * puts on `NamesAccepted=False` (each check overwrites the one before).
 *
 * @example
 * acceptNames(defaultedNames({ kind: 'WidgetList', plural: 'widgetlists' }), undefined, [defaultedNames({ kind: 'Widget', plural: 'widgets' })]);
 * // → { names: { kind: '', plural: 'widgetlists', singular: 'widgetlist', listKind: … }, conflict: { reason: 'KindConflict', … } }
 */
export function acceptNames(requested: CrdNames, accepted: Partial<CrdNames> | undefined, others: readonly CrdNames[]): { names: AcceptedNames; conflict?: NameConflict } {
  const fresh = (name: string, own: string | undefined): boolean => name !== own;
  const ownShort = new Set(accepted?.shortNames ?? []);
  const checks: NameCheck[] = [];
  if (fresh(requested.plural, accepted?.plural)) checks.push(['PluralConflict', requested.plural, resourceNames]);
  if (fresh(requested.singular, accepted?.singular)) checks.push(['SingularConflict', requested.singular, resourceNames]);
  for (const short of requested.shortNames ?? []) if (!ownShort.has(short)) checks.push(['ShortNamesConflict', short, resourceNames]);
  if (fresh(requested.kind, accepted?.kind)) checks.push(['KindConflict', requested.kind, kindNames]);
  if (fresh(requested.listKind, accepted?.listKind)) checks.push(['ListKindConflict', requested.listKind, kindNames]);
  const found = conflicts(checks, others);
  const refused = new Set(found.map((c) => c.reason));
  const pick = <K extends keyof CrdNames>(key: K, reason: NameConflict['reason']): CrdNames[K] | undefined => (refused.has(reason) ? accepted?.[key] : requested[key]);
  const names: AcceptedNames = {
    ...accepted,
    kind: pick('kind', 'KindConflict') ?? '',
    plural: pick('plural', 'PluralConflict') ?? '',
    singular: pick('singular', 'SingularConflict'),
    listKind: pick('listKind', 'ListKindConflict'),
    shortNames: pick('shortNames', 'ShortNamesConflict'),
  };
  for (const key of Object.keys(names) as (keyof AcceptedNames)[]) if (names[key] === undefined) delete names[key];
  return { names, ...(found.length > 0 && { conflict: found[found.length - 1] }) };
}

/** What the taken name is to the CRD that holds it: `the list kind of Widget`. */
export function heldAs(conflict: NameConflict): string {
  const { holder, name } = conflict;
  const role =
    holder.kind === name ? 'the kind' : holder.listKind === name ? 'the list kind' : holder.plural === name ? 'the plural' : holder.singular === name ? 'the singular' : 'a short name';
  return `${role} of ${holder.kind}`;
}
