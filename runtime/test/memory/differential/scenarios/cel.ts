import { WIDGETS } from '../crds.js';
import type { Area } from '../scenario.js';
import { ref } from '../scenario.js';
import { MERGE, create, patch, update, widget } from '../steps.js';

const W = `${WIDGETS}/w`;
const at = (step: string): { resourceVersion: ReturnType<typeof ref> } => ({ resourceVersion: ref(step, 'metadata.resourceVersion') });

/** x-kubernetes-validations: rules, messageExpression, reason and fieldPath, transition rules (oldSelf), optionalOldSelf. */
export const cel: Area = {
  area: 'CRD CEL validation',
  owner: 'schema',
  scenarios: [
    { name: 'a rule that holds lets the object in', steps: [create(WIDGETS, widget('w', { replicas: 3, minReplicas: 2 }))] },
    { name: 'a broken rule with messageExpression, reason and fieldPath', steps: [create(WIDGETS, widget('w', { replicas: 1, minReplicas: 2, size: 'medium' }))] },
    { name: 'a rule on a field with a fixed message', steps: [create(WIDGETS, widget('w', { schedule: 'every day' }))] },
    { name: 'a string rule that holds', steps: [create(WIDGETS, widget('w', { schedule: '0 * * * *' }))] },
    { name: 'a rule is checked against defaulted values', steps: [create(WIDGETS, widget('w', { minReplicas: 2 }))] },
    { name: 'transition rule: self == oldSelf refuses a change', steps: [create(WIDGETS, widget('w', { immutable: 'a' })), patch(W, MERGE, { spec: { immutable: 'b' } })] },
    { name: 'transition rule: self == oldSelf allows the same value', steps: [create(WIDGETS, widget('w', { immutable: 'a' })), patch(W, MERGE, { spec: { immutable: 'a', replicas: 2 } })] },
    { name: 'transition rule is not checked on create', steps: [create(WIDGETS, widget('w', { size: 'large' }))] },
    { name: 'transition rule on the spec refuses large to small', steps: [create(WIDGETS, widget('w', { size: 'large' })), patch(W, MERGE, { spec: { size: 'small' } })] },
    { name: 'transition rule on the spec allows small to large', steps: [create(WIDGETS, widget('w', { size: 'small' })), patch(W, MERGE, { spec: { size: 'large' } })] },
    { name: 'a transition rule on a field that was absent is not checked', steps: [create(WIDGETS, widget('w')), patch(W, MERGE, { spec: { immutable: 'new' } })] },
    { name: 'optionalOldSelf: owner may be set once', steps: [create(WIDGETS, widget('w')), patch(W, MERGE, { spec: { owner: 'alice' } })] },
    { name: 'optionalOldSelf: owner cannot change once set', steps: [create(WIDGETS, widget('w', { owner: 'alice' })), patch(W, MERGE, { spec: { owner: 'bob' } })] },
    { name: 'optionalOldSelf: owner cannot be removed once set', steps: [create(WIDGETS, widget('w', { owner: 'alice' })), patch(W, MERGE, { spec: { owner: null } })] },
    { name: 'several broken rules are all reported', steps: [create(WIDGETS, widget('w', { size: 'large', immutable: 'a' })), patch(W, MERGE, { spec: { size: 'small', immutable: 'b', minReplicas: 5 } })] },
    { name: 'CEL rules are not checked when schema validation already failed for the field', steps: [create(WIDGETS, widget('w', { replicas: 'x', minReplicas: 2 }))] },
    {
      name: 'a transition rule on update with PUT',
      steps: [create(WIDGETS, widget('w', { immutable: 'a' }), 'v1'), update(W, widget('w', { immutable: 'z' }, at('v1')))],
    },
    {
      name: 'ratcheting: an unchanged invalid value does not block an update of another field',
      steps: [create(WIDGETS, widget('w', { size: 'large' })), patch(W, MERGE, { spec: { replicas: 2 } })],
    },
  ],
};
