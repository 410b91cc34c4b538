import { describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/markers/parse.js';

const at = { file: 'x.ts', line: 1, column: 1 };

// Every CRD, RBAC and webhook marker of controller-gen v0.21, as users write them.
const controllerGenMarkers = [
  'groupName=example.com',
  'versionName=v1',
  'kubebuilder:skip',
  'kubebuilder:skip:description',
  'kubebuilder:object:root=true',
  'kubebuilder:resource:path=foos,shortName=f;fo,categories=all,singular=foo,scope=Cluster',
  'kubebuilder:subresource:status',
  'kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector',
  'kubebuilder:storageversion',
  'kubebuilder:unservedversion',
  'kubebuilder:deprecatedversion:warning="use v2"',
  'kubebuilder:skipversion',
  'kubebuilder:printcolumn:name="Size",type=integer,JSONPath=".spec.size",description="GiB",format=int32,priority=0',
  'kubebuilder:metadata:annotations="a=b",labels="c=d"',
  'kubebuilder:selectablefield:JSONPath=".spec.name"',
  'kubebuilder:validation:Optional',
  'kubebuilder:validation:Required',
  'optional',
  'required',
  'k8s:optional',
  'k8s:required',
  'nullable',
  'kubebuilder:default=1',
  'default={"a":1}',
  'kubebuilder:example=x',
  'kubebuilder:title=Title',
  'kubebuilder:externalDocs:url=https://example.com,description=docs',
  'kubebuilder:validation:EmbeddedResource',
  'kubebuilder:validation:Schemaless',
  'kubebuilder:pruning:PreserveUnknownFields',
  'enum',
  'k8s:enum',
  'k8s:immutable',
  'kubebuilder:validation:ExactlyOneOf=a;b',
  'kubebuilder:validation:AtMostOneOf=a;b',
  'kubebuilder:validation:AtLeastOneOf=a;b',
  'listType=map',
  'listMapKey=name',
  'k8s:listType=set',
  'k8s:listMapKey=name',
  'mapType=atomic',
  'structType=atomic',
  'kubebuilder:rbac:groups=apps,resources=deployments,resourceNames=a,verbs=get,urls=/m,namespace=ns,roleName=r',
  'kubebuilder:webhook:path=/mutate,mutating=true,failurePolicy=fail,sideEffects=None,groups=g,resources=r,verbs=create,versions=v1,name=m.g.io,admissionReviewVersions=v1,matchPolicy=Exact,timeoutSeconds=5,reinvocationPolicy=Never,webhookVersions=v1,serviceName=s,serviceNamespace=n,servicePort=443',
  'kubebuilder:webhookconfiguration:mutating=false,name=my-config',
];

const validations = [
  'Maximum=1', 'Minimum=1', 'ExclusiveMaximum=true', 'ExclusiveMinimum=false', 'MultipleOf=2', 'MinProperties=1',
  'MaxProperties=2', 'MaxLength=1', 'MinLength=1', 'Pattern=^a$', 'MaxItems=1', 'MinItems=1', 'UniqueItems=true',
  'Enum=a;b', 'Format=date-time', 'Type=string', 'XPreserveUnknownFields', 'XEmbeddedResource', 'XIntOrString',
  'XValidation:rule="self > 0",message="m",messageExpression="\'m\'",reason=FieldValueInvalid,fieldPath=".a",optionalOldSelf=true',
];

describe('the marker registry', () => {
  it.each(controllerGenMarkers)('accepts +%s', (text) => {
    expect(() => parseMarker(text, at)).not.toThrow();
  });

  it.each(validations.flatMap((v) => [`kubebuilder:validation:${v}`, `kubebuilder:validation:items:${v}`]))('accepts +%s', (text) => {
    expect(() => parseMarker(text, at)).not.toThrow();
  });

  it('maps the three spellings of optional and required to one meaning', () => {
    const canonical = (t: string) => parseMarker(t, at).canonical;
    expect(new Set(['optional', 'k8s:optional', 'kubebuilder:validation:Optional'].map(canonical))).toEqual(new Set(['kubebuilder:validation:Optional']));
    expect(new Set(['required', 'k8s:required', 'kubebuilder:validation:Required'].map(canonical))).toEqual(new Set(['kubebuilder:validation:Required']));
    expect(canonical('k8s:listType=map')).toBe('listType');
  });
});
