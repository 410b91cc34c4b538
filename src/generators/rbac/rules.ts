/**
 * controller-gen's normalization of RBAC rules: one rule per resource, `core` read as the
 * core group `""`, then rules merged when they differ in one field only, field by field
 * (verbs, then resources, then API groups, then URLs), each list deduplicated and sorted,
 * and the rules sorted by what they apply to.
 */

/** A PolicyRule in the making; every list is deduplicated and sorted. */
export interface Rule {
  groups: string[];
  resources: string[];
  resourceNames: string[];
  urls: string[];
  verbs: string[];
}

type Field = keyof Rule;

const sortedSet = (values: readonly string[]) => [...new Set(values)].sort(compare);

/** Go's string order (byte-wise), which controller-gen sorts with. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function normalize(rule: Rule): Rule {
  return {
    groups: sortedSet(rule.groups.map((group) => (group === 'core' ? '' : group))),
    resources: sortedSet(rule.resources),
    resourceNames: sortedSet(rule.resourceNames),
    urls: sortedSet(rule.urls),
    verbs: sortedSet(rule.verbs),
  };
}

/** What a rule applies to: controller-gen's rule key, and the order of the output. */
function target(rule: Rule): string {
  return [rule.groups, rule.resources, rule.resourceNames, rule.urls].map((list) => list.join('&')).join(' + ');
}

/** The rules' union where they are equal except in `field`. */
function mergeOn(rules: readonly Rule[], field: Field): Rule[] {
  const groups = new Map<string, Rule>();
  for (const rule of rules) {
    const others = (['groups', 'resources', 'resourceNames', 'urls', 'verbs'] as const).filter((f) => f !== field);
    const key = JSON.stringify(others.map((f) => rule[f]));
    const merged = groups.get(key);
    groups.set(key, merged ? normalize({ ...merged, [field]: [...merged[field], ...rule[field]] }) : rule);
  }
  // Two merged rules can now apply to the same things with different verbs: join those too,
  // where controller-gen would keep one of them at random.
  const byTarget = new Map<string, Rule>();
  for (const rule of groups.values()) {
    const same = byTarget.get(target(rule));
    byTarget.set(target(rule), same ? normalize({ ...same, verbs: [...same.verbs, ...rule.verbs] }) : rule);
  }
  return [...byTarget.values()];
}

/** Normalizes, merges and sorts the rules of one role. */
export function normalizeRules(rules: readonly Rule[]): Rule[] {
  const split = rules.flatMap((rule) =>
    rule.resources.length === 0 ? [normalize(rule)] : rule.resources.map((resource) => normalize({ ...rule, resources: [resource] })),
  );
  let merged = mergeOn(split, 'verbs');
  for (const field of ['resources', 'groups', 'urls'] as const) merged = mergeOn(merged, field);
  return merged
    .map((rule) => (rule.verbs.includes('*') ? { ...rule, verbs: ['*'] } : rule))
    .sort((a, b) => compare(target(a), target(b)));
}
