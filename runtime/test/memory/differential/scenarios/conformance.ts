import type { Area, Scenario } from '../scenario.js';
import { APPLY, MERGE, create, get, patch } from '../steps.js';

/**
 * Custom objects of test/conformance's upstream APIs (their CRDs as `opgen manifests`
 * writes them, see crds/README.md): the markers project's Gadget, whose schema holds most
 * kubebuilder markers and several CEL rules, cert-manager's Certificate, the optional
 * project's Setting, the podtemplate project's Runner and kubebuilder's samples.
 */

const GADGETS = '/apis/markers.conformance.opgen.dev/v1/namespaces/{ns}/gadgets';
const CERTIFICATES = '/apis/cert-manager.io/v1/namespaces/{ns}/certificates';
const SETTINGS = '/apis/optional.conformance.opgen.dev/v1/namespaces/{ns}/settings';
const RUNNERS = '/apis/podtemplate.conformance.opgen.dev/v1/namespaces/{ns}/runners';
const MEMCACHEDS = '/apis/example.com.testproject.org/v1alpha1/namespaces/{ns}/memcacheds';

const base = { displayName: 'Gadget', factory: 'north', finish: 'matte', length: 3, model: 'GX-1' };
const gadget = (name: string, spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'markers.conformance.opgen.dev/v1',
  kind: 'Gadget',
  metadata: { name },
  spec: { ...base, ...spec },
});
const creates = (name: string, spec: Record<string, unknown>, objectName = 'g'): Scenario => ({ name, steps: [create(GADGETS, gadget(objectName, spec))] });
const certificate = (spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name: 'c' },
  spec: { secretName: 'tls', issuerRef: { name: 'ca', kind: 'Issuer' }, ...spec },
});

export const conformance: Area = {
  area: 'conformance APIs',
  owner: 'schema',
  scenarios: [
    creates('Gadget: a valid gadget gets its defaults', {}),
    creates('Gadget: required fields missing', { displayName: undefined, model: undefined }),
    creates('Gadget: model pattern and length', { model: 'gx' }),
    creates('Gadget: label messageExpression with reason', { label: 'reserved' }),
    creates('Gadget: limits CEL rules (softCap below floor, both caps, neither floor)', { limits: { softCap: 1, hardCap: 2 } }),
    creates('Gadget: limits with floor and softCap above it', { limits: { floor: 1, softCap: 2 } }),
    creates('Gadget: exclusiveMaximum on replicas', { replicas: 10 }),
    creates('Gadget: integer enum', { level: 4 }),
    creates('Gadget: a byte field that is not base64', { blob: 'not base64!' }),
    creates('Gadget: a byte field in base64', { blob: 'aGVsbG8=' }),
    creates('Gadget: list-map parts with duplicate serials', { parts: [{ serial: 'AB1234', weight: 1 }, { serial: 'AB1234', weight: 2 }] }),
    creates('Gadget: exclusiveMinimum on a nested weight', { parts: [{ serial: 'AB1234', weight: 0 }] }),
    creates('Gadget: minProperties of an atomic map', { annotations: {} }),
    creates('Gadget: maxProperties of a granular map', { podLabels: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, 'v'])) }),
    creates('Gadget: nullable fields take null', { enabled: null, note: null }),
    creates('Gadget: an embedded resource in extra', { extra: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } } }),
    creates('Gadget: a name longer than 40 characters (CEL on metadata.name)', {}, 'g'.repeat(41)),
    {
      name: 'Gadget: factory and batch are immutable',
      steps: [create(GADGETS, gadget('g', { batch: 'b1' })), patch(`${GADGETS}/g`, MERGE, { spec: { factory: 'south', batch: 'b2' } })],
    },
    {
      name: 'Gadget: the selectable field spec.model',
      steps: [create(GADGETS, gadget('a', {})), create(GADGETS, gadget('b', { model: 'GX-2' })), get(GADGETS, { fieldSelector: 'spec.model=GX-2' })],
    },
    {
      name: 'Gadget: the scale subresource on spec.length',
      steps: [create(GADGETS, gadget('g', {})), get(`${GADGETS}/g/scale`)],
    },
    {
      name: 'Gadget: server-side apply of parts merges by serial',
      steps: [
        { method: 'PATCH', path: `${GADGETS}/g`, contentType: APPLY, query: { fieldManager: 'a' }, body: gadget('g', { parts: [{ serial: 'AB0001', weight: 1 }] }) },
        { method: 'PATCH', path: `${GADGETS}/g`, contentType: APPLY, query: { fieldManager: 'b' }, body: { apiVersion: 'markers.conformance.opgen.dev/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { parts: [{ serial: 'AB0002', weight: 2 }] } } },
      ],
    },
    { name: 'Certificate: a valid one', steps: [create(CERTIFICATES, certificate({ dnsNames: ['example.com'], privateKey: { algorithm: 'ECDSA', size: 256 } }))] },
    { name: 'Certificate: an algorithm outside the enum', steps: [create(CERTIFICATES, certificate({ privateKey: { algorithm: 'DSA' } }))] },
    { name: 'Certificate: secretName and issuerRef are required', steps: [create(CERTIFICATES, { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'c' }, spec: {} })] },
    { name: 'Certificate: duration is a free string', steps: [create(CERTIFICATES, certificate({ duration: 'one day' }))] },
    { name: 'Setting: required owner and value', steps: [create(SETTINGS, { apiVersion: 'optional.conformance.opgen.dev/v1', kind: 'Setting', metadata: { name: 's' }, spec: { name: 'x' } })] },
    { name: 'Setting: a valid one', steps: [create(SETTINGS, { apiVersion: 'optional.conformance.opgen.dev/v1', kind: 'Setting', metadata: { name: 's' }, spec: { owner: 'me', value: 'v' } })] },
    {
      name: 'Runner: an embedded pod template with resources and tolerations',
      steps: [
        create(RUNNERS, {
          apiVersion: 'podtemplate.conformance.opgen.dev/v1',
          kind: 'Runner',
          metadata: { name: 'r' },
          spec: {
            template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '500m', memory: '1Gi' } } }] } },
            tolerations: [{ key: 'k', operator: 'Exists' }],
            timeout: '30s',
          },
        }),
      ],
    },
    { name: 'Runner: the template is required', steps: [create(RUNNERS, { apiVersion: 'podtemplate.conformance.opgen.dev/v1', kind: 'Runner', metadata: { name: 'r' }, spec: {} })] },
    { name: 'Memcached: containerPort is required', steps: [create(MEMCACHEDS, { apiVersion: 'example.com.testproject.org/v1alpha1', kind: 'Memcached', metadata: { name: 'm' }, spec: { size: 1 } })] },
    { name: 'Memcached: a valid one with status through /status', steps: [create(MEMCACHEDS, { apiVersion: 'example.com.testproject.org/v1alpha1', kind: 'Memcached', metadata: { name: 'm' }, spec: { size: 1, containerPort: 11211 } }), patch(`${MEMCACHEDS}/m/status`, MERGE, { status: { conditions: [{ type: 'Available', status: 'True', reason: 'Reconciling', message: 'ok', lastTransitionTime: '2024-01-01T00:00:00Z' }] } })] },
  ],
};
