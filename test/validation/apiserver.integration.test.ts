/**
 * The checks of src/validation against a real kube-apiserver: whatever opgen rejects, the
 * API server rejects too; what opgen produces (built-in schemas, samples, roles, webhook
 * configurations), the API server accepts.
 */
import { request } from 'node:https';
import type { KubernetesObject } from '@kubernetes/client-node';
import { startControlPlane, waitForCRDsEstablished, type ControlPlane } from '@opgen/runtime/testing';
import fc from 'fast-check';
import { parse, parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRbac } from '../../src/generators/rbac.js';
import { generateSamples } from '../../src/generators/samples.js';
import { generateWebhooks } from '../../src/generators/webhook.js';
import type { RbacMarker, WebhookRuleMarker } from '../../src/markers/types.js';
import { pluralOf } from '../../src/names/plural.js';
import { builtinSchema } from '../../src/schema/builtins.js';
import { builtinDefinitionNames } from '../../src/schema/builtins/data.js';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { checkCelRule } from '../../src/validation/cel.js';
import { checkDefaults, checkStructural } from '../../src/validation/structural.js';
import { schemaArbitrary } from '../generators/schema-arbitrary.js';
import { acceptedSchemas, acceptedSpec, celRejections, crdOf, defaultRejections, root, structuralRejections } from './cases.js';

const group = 'parity.opgen.dev';
const crd = (kind: string, schema: JSONSchemaProps) => crdOf(kind, group, schema) as KubernetesObject;
let controlPlane: ControlPlane;

beforeAll(async () => {
  controlPlane = await startControlPlane();
});

afterAll(async () => {
  await controlPlane?.stop();
});

/**
 * Creates the object (only validates it with `dryRun`); the API server's refusal, or
 * undefined. The JSON is posted as it is: a typed client would drop the `x-kubernetes-*`
 * keywords it does not model under those names.
 */
async function refusal(object: KubernetesObject, dryRun = true): Promise<string | undefined> {
  const [group, version] = object.apiVersion?.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const namespace = object.metadata?.namespace ? `/namespaces/${object.metadata.namespace}` : '';
  const url = new URL(`${base}${namespace}/${pluralOf(object.kind ?? '')}${dryRun ? '?dryRun=All' : ''}`, controlPlane.kubeConfig.getCurrentCluster()?.server);
  const options: import('node:https').RequestOptions = { method: 'POST', headers: { 'content-type': 'application/json' } };
  await controlPlane.kubeConfig.applyToHTTPSOptions(options);
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(object));
  });
  return status < 300 ? undefined : ((JSON.parse(body) as { message?: string }).message ?? body);
}

const withoutDescriptions = (schema: JSONSchemaProps): JSONSchemaProps =>
  JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === 'description' ? undefined : value))) as JSONSchemaProps;

describe('the API server agrees with checkStructural and checkDefaults', () => {
  it('accepts the schema opgen accepts', async () => {
    expect(checkStructural(root(acceptedSpec))).toEqual([]);
    expect(await refusal(crd('Accepted', root(acceptedSpec)))).toBeUndefined();
  });

  // opgen words a refusal as the API server does, after the data path: the field error's text.
  it.each(structuralRejections)('rejects %s, for the reason opgen gives', async (_, spec, path, message) => {
    expect(checkStructural(root(spec))).toContainEqual({ path, message });
    expect(await refusal(crd('Rejected', root(spec)))).toContain(`.${message}`);
  });

  it.each(acceptedSchemas)('accepts %s, as opgen does', async (_, spec) => {
    expect([...checkStructural(root(spec)), ...checkDefaults(root(spec))]).toEqual([]);
    expect(await refusal(crd('Accepted', root(spec)))).toBeUndefined();
  });

  it.each(defaultRejections)('rejects a default %s', async (_, x) => {
    const schema = root({ type: 'object', properties: { x } });
    expect(checkDefaults(schema)).not.toEqual([]);
    expect(await refusal(crd('Defaulted', schema))).toBeDefined();
  });

  it.each(celRejections.filter(([rule]) => rule !== ''))('rejects the CEL rule %j', async (rule) => {
    expect(checkCelRule(rule)).toBeDefined();
    const schema = root({ type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': [{ rule, message: 'm' }] });
    expect(await refusal(crd('Celled', schema))).toMatch(/x-kubernetes-validations/);
  });
});

describe('the API server accepts what opgen produces', () => {
  it('accepts the schema of every built-in definition embedded in a CRD', async () => {
    const names = builtinDefinitionNames();
    // Batches small enough for one request; descriptions do not change what is valid.
    const batches: Record<string, JSONSchemaProps>[] = [{}];
    let size = 0;
    for (const [i, name] of names.entries()) {
      const schema = withoutDescriptions(builtinSchema(name) as JSONSchemaProps);
      size += JSON.stringify(schema).length;
      if (size > 600_000) {
        batches.push({});
        size = JSON.stringify(schema).length;
      }
      (batches.at(-1) as Record<string, JSONSchemaProps>)[`f${i}`] = schema;
    }
    const refusals = [];
    for (const properties of batches) refusals.push(await refusal(crd('Builtin', root({ type: 'object', properties }))));
    expect(refusals.filter(Boolean)).toEqual([]);
  });

  it('serves a CRD embedding a pod template, resources and conditions, and accepts its sample', async () => {
    const template = { ...(builtinSchema('V1PodTemplateSpec') as JSONSchemaProps), required: ['spec'] };
    const schema = root({
      type: 'object',
      required: ['template', 'resources', 'owner'],
      properties: {
        template,
        resources: builtinSchema('V1ResourceRequirements') as JSONSchemaProps,
        owner: { ...(builtinSchema('V1ObjectReference') as JSONSchemaProps), required: ['name'] },
        conditions: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['type'],
          items: builtinSchema('V1Condition') as JSONSchemaProps,
        },
      },
    });
    const definition = crd('PodSet', schema);
    expect(await refusal(definition, false)).toBeUndefined();
    await waitForCRDsEstablished(controlPlane.kubeConfig, [definition.metadata?.name as string]);
    const [file] = generateSamples([{ group, version: 'v1', kind: 'PodSet', plural: 'podsets', schema }], new Set(), { projectName: 'parity', domain: 'opgen.dev' });
    const sample = { ...(parse(file?.content ?? '') as KubernetesObject), metadata: { name: 'podset-sample', namespace: 'default' } };
    expect(await refusal(sample, false)).toBeUndefined();
  });

  it('accepts the samples of random schemas', async () => {
    const fields = fc.sample(schemaArbitrary, { numRuns: 60, seed: 42 });
    const spec: JSONSchemaProps = {
      type: 'object',
      required: fields.map((_, i) => `f${i}`),
      properties: Object.fromEntries(fields.map((field, i) => [`f${i}`, field])),
    };
    const schema = root(spec);
    expect(checkStructural(schema)).toEqual([]);
    const definition = crd('Random', schema);
    expect(await refusal(definition, false)).toBeUndefined();
    await waitForCRDsEstablished(controlPlane.kubeConfig, [definition.metadata?.name as string]);
    const [file] = generateSamples([{ group, version: 'v1', kind: 'Random', plural: 'randoms', schema }], new Set(), { projectName: 'parity', domain: 'opgen.dev' });
    const sample = { ...(parse(file?.content ?? '') as KubernetesObject), metadata: { name: 'random-sample', namespace: 'default' } };
    expect(await refusal(sample)).toBeUndefined();
  });

  it('accepts the generated roles', async () => {
    const location = { file: 'src/controllers/x.ts', line: 1, column: 1 };
    const markers: RbacMarker[] = [
      { groups: ['core'], resources: ['pods', 'pods/status'], verbs: ['get', 'list', '*'], location },
      { groups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['get', 'update'], location },
      { urls: ['/metrics'], verbs: ['get'], location },
      { groups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'], namespace: 'default', location },
    ];
    const [file] = generateRbac(markers);
    const objects = parseAllDocuments(file?.content ?? '').map((d) => d.toJS() as KubernetesObject);
    expect(objects.map((o) => o.kind)).toEqual(['ClusterRole', 'Role']);
    for (const object of objects) expect(await refusal(object)).toBeUndefined();
  });

  it('accepts the generated webhook configurations', async () => {
    const base: WebhookRuleMarker = {
      marker: 'webhook',
      mutating: true,
      failurePolicy: 'fail',
      sideEffects: 'None',
      groups: [group],
      resources: ['podsets'],
      verbs: ['create', 'update'],
      versions: ['v1'],
      name: 'mpodset-v1.kb.io',
      path: '/mutate-parity-opgen-dev-v1-podset',
      admissionReviewVersions: ['v1'],
      reinvocationPolicy: 'IfNeeded',
      timeoutSeconds: 10,
      location: { file: 'src/webhooks/podset.ts', line: 1, column: 1 },
    };
    const written = (value: unknown) => ({ value, raw: JSON.stringify(value), column: 1 });
    const [file] = generateWebhooks(
      [
        base,
        {
          ...base,
          mutating: false,
          reinvocationPolicy: undefined,
          name: 'vpodset-v1.kb.io',
          path: undefined,
          url: 'https://webhook.example.com:9443/validate',
          matchPolicy: 'Exact',
          objectSelector: written({ matchLabels: { 'app.kubernetes.io/part-of': 'shop' } }),
          namespaceSelector: written({ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }] }),
          matchConditions: written([{ name: 'not-dry-run', expression: '!has(request.dryRun) || !request.dryRun' }]),
        },
        // A webhook on Pods gets the selectors that keep it out of the operator's namespace.
        { ...base, name: 'mpod-v1.kb.io', groups: ['core'], resources: ['pods'], path: '/mutate--v1-pod' },
      ],
      { operatorNamespace: 'parity-system', namespaced: false, ownGroups: new Set([group]) },
    );
    const objects = parseAllDocuments(file?.content ?? '').map((d) => d.toJS() as KubernetesObject);
    expect(objects.map((o) => o.kind)).toEqual(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
    expect(JSON.stringify(objects)).toContain('"matchConditions"');
    expect(JSON.stringify(objects)).toContain('"kube-system"');
    for (const object of objects) expect(await refusal(object)).toBeUndefined();
  });
});
