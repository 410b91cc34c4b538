import type { Predicate } from '../controller/predicates.js';

/** A `metav1.LabelSelector`, as watches.yaml's `selector` takes it. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** Whether `labels` satisfy `selector`, with Kubernetes' meaning of each operator. */
export function matchesSelector(selector: LabelSelector, labels: Record<string, string>): boolean {
  const equal = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  return equal && (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    const has = Object.hasOwn(labels, key);
    switch (operator) {
      case 'In':
        return has && values.includes(labels[key]!);
      case 'NotIn':
        return !has || !values.includes(labels[key]!);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
    }
  });
}

/** Events of objects outside `selector` enqueue nothing. */
export function selectorPredicate(selector: LabelSelector): Predicate {
  return (event) => matchesSelector(selector, event.object.metadata?.labels ?? {});
}
