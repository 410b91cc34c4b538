import { WIDGETS } from '../crds.js';
import type { Area, Step } from '../scenario.js';
import { CONFIGMAPS, SECRETS, configMap, create, get, widget } from '../steps.js';

/** Three labelled ConfigMaps: a (app=web, tier=front), b (app=web, tier=back), c (app=db). */
const labelled: Step[] = [
  create(CONFIGMAPS, configMap('a', {}, { labels: { app: 'web', tier: 'front', sel: 'y' } })),
  create(CONFIGMAPS, configMap('b', {}, { labels: { app: 'web', tier: 'back', sel: 'y' } })),
  create(CONFIGMAPS, configMap('c', {}, { labels: { app: 'db', sel: 'y' } })),
];
const widgets: Step[] = [
  create(WIDGETS, widget('one', { size: 'small', enabled: true })),
  create(WIDGETS, widget('two', { size: 'large', enabled: false })),
  create(WIDGETS, widget('three', { size: 'large' })),
];
const select = (labelSelector: string): Step => get(CONFIGMAPS, { labelSelector });
const byField = (fieldSelector: string): Step => get(WIDGETS, { fieldSelector });

/** Label selectors (equality and set-based) and the field selectors the API server supports. */
export const selectors: Area = {
  area: 'label and field selectors',
  owner: 'memserver',
  scenarios: [
    { name: 'label selector equality (=)', steps: [...labelled, select('app=web')] },
    { name: 'label selector equality (==) with two terms', steps: [...labelled, select('app==web,tier==back')] },
    { name: 'label selector inequality (!=) includes objects without the label', steps: [...labelled, select('sel=y,tier!=front')] },
    { name: 'label selector in (...)', steps: [...labelled, select('app in (db, web),sel=y')] },
    { name: 'label selector notin (...)', steps: [...labelled, select('sel=y,tier notin (front)')] },
    { name: 'label selector exists', steps: [...labelled, select('tier')] },
    { name: 'label selector does not exist (!key)', steps: [...labelled, select('sel=y,!tier')] },
    { name: 'label selector that matches nothing', steps: [...labelled, select('app=none')] },
    { name: 'an invalid label selector is 400 BadRequest', steps: [...labelled, select('app in web')] },
    { name: 'label selector with an invalid value is 400 BadRequest', steps: [select('app=not valid!')] },
    { name: 'field selector metadata.name', steps: [...labelled, get(CONFIGMAPS, { fieldSelector: 'metadata.name=b' })] },
    { name: 'field selector metadata.name!=', steps: [...labelled, get(CONFIGMAPS, { fieldSelector: 'metadata.name!=b', labelSelector: 'sel=y' })] },
    { name: 'field selector metadata.namespace', steps: [...labelled, get(CONFIGMAPS, { fieldSelector: 'metadata.namespace={ns}', labelSelector: 'app=db' })] },
    { name: 'label and field selectors together', steps: [...labelled, get(CONFIGMAPS, { fieldSelector: 'metadata.name!=a', labelSelector: 'app=web' })] },
    { name: 'a field selector the kind does not support is 400 BadRequest', steps: [get(CONFIGMAPS, { fieldSelector: 'data.k=v' })] },
    { name: 'Secret field selector type', steps: [create(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque' }), get(SECRETS, { fieldSelector: 'type=Opaque' })] },
    { name: 'CRD field selector metadata.name on Widgets', steps: [...widgets, byField('metadata.name=two')] },
    { name: 'CRD selectableFields: spec.size', steps: [...widgets, byField('spec.size=large')] },
    { name: 'CRD selectableFields: a defaulted field', steps: [create(WIDGETS, widget('plain')), ...widgets, byField('spec.size=small')] },
    { name: 'CRD selectableFields: a boolean field', steps: [...widgets, byField('spec.enabled=true')] },
    { name: 'CRD selectableFields: != on an absent field', steps: [...widgets, byField('spec.enabled!=true')] },
    { name: 'CRD field selector on a field that is not selectable is 400 BadRequest', steps: [...widgets, byField('spec.replicas=1')] },
    { name: 'CRD field selector with set-based syntax is refused', steps: [byField('spec.size in (large)')] },
  ],
};
