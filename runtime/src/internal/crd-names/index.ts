/**
 * The API server's rule for the names of the CRDs of one group (apiextensions-apiserver's
 * NamingConditionController): a CRD's plural, singular and short names must not be a
 * resource name another CRD of the group already has (its plural, singular or a short
 * name), and its kind and list kind must not be another's kind or list kind. A CRD that
 * breaks it gets `NamesAccepted=False` and is never established. One home for the rule: the
 * CLI checks `create api` and `opgen manifests` with it; the memory cluster should too.
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
  const resourceNames = (n: CrdNames) => [n.plural, n.singular, ...(n.shortNames ?? [])];
  const kindNames = (n: CrdNames) => [n.kind, n.listKind];
  const checks: [NameConflict['reason'], string, (n: CrdNames) => string[]][] = [
    ['PluralConflict', candidate.plural, resourceNames],
    ['SingularConflict', candidate.singular, resourceNames],
    ...(candidate.shortNames ?? []).map((short): [NameConflict['reason'], string, (n: CrdNames) => string[]] => ['ShortNamesConflict', short, resourceNames]),
    ['KindConflict', candidate.kind, kindNames],
    ['ListKindConflict', candidate.listKind, kindNames],
  ];
  for (const [reason, name, taken] of checks) {
    const holder = others.find((other) => taken(other).includes(name));
    if (holder) return { reason, name, message: `"${name}" is already in use`, holder };
  }
  return undefined;
}

/** What the taken name is to the CRD that holds it: `the list kind of Widget`. */
export function heldAs(conflict: NameConflict): string {
  const { holder, name } = conflict;
  const role =
    holder.kind === name ? 'the kind' : holder.listKind === name ? 'the list kind' : holder.plural === name ? 'the plural' : holder.singular === name ? 'the singular' : 'a short name';
  return `${role} of ${holder.kind}`;
}
