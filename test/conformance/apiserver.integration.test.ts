/**
 * The podtemplate twin against a real kube-apiserver: the CRD opgen writes and the CRD
 * controller-gen writes for the same API, installed side by side in two groups, accept,
 * default, prune and reject the same objects in the same way. The one deliberate difference
 * (an embedded ObjectMeta keeps its labels and annotations) is checked as such.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installCRDs, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controllerGenBinary, controllerGenCrds, opgenCrds } from './generate.js';

const file = 'podtemplate.conformance.opgen.dev_runners.yaml';
const opgenGroup = 'podtemplate.conformance.opgen.dev';
const goGroup = 'go.podtemplate.conformance.opgen.dev';
let controlPlane: ControlPlane;

interface Crd {
  metadata: { name: string };
  spec: { group: string };
}

beforeAll(async () => {
  const binary = controllerGenBinary();
  const opgen = (await opgenCrds('podtemplate')).get(file) as Crd;
  const go = controllerGenCrds(binary, './podtemplate/...').get(file) as Crd;
  go.spec.group = goGroup;
  go.metadata.name = `runners.${goGroup}`;
  controlPlane = await startControlPlane();
  const dir = mkdtempSync(join(tmpdir(), 'opgen-conformance-crds-'));
  try {
    writeFileSync(join(dir, 'opgen.yaml'), stringify(opgen));
    writeFileSync(join(dir, 'go.yaml'), stringify(go));
    await installCRDs(controlPlane.kubeConfig, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 900_000);

afterAll(async () => {
  await controlPlane?.stop();
});

interface Outcome {
  /** The object as the API server would store it (defaulted, pruned), without server-set metadata. */
  stored?: Record<string, unknown>;
  /** The API server's refusal, with the group name made neutral. */
  refused?: string;
}

/** Creates a Runner in `group` with dry-run: what the API server would store, or why it refuses. */
async function create(group: string, spec: unknown): Promise<Outcome> {
  const object = { apiVersion: `${group}/v1`, kind: 'Runner', metadata: { name: 'r', namespace: 'default' }, spec };
  const url = new URL(`/apis/${group}/v1/namespaces/default/runners?dryRun=All`, controlPlane.kubeConfig.getCurrentCluster()?.server);
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
  const parsed = JSON.parse(body) as { message?: string; spec?: unknown };
  if (status >= 300) return { refused: (parsed.message ?? body).replaceAll(group, '<group>') };
  return { stored: { spec: parsed.spec } };
}

/** The outcome in both groups: opgen's CRD first, controller-gen's second. */
async function both(spec: unknown): Promise<[Outcome, Outcome]> {
  return [await create(opgenGroup, spec), await create(goGroup, spec)];
}

const container = { name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80 }] };
const template = (podSpec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({ template: { metadata, spec: podSpec } });

/** A spec without the template's metadata, the one part the two CRDs treat differently on purpose. */
function withoutTemplateMetadata(outcome: Outcome): Outcome {
  const spec = structuredClone(outcome.stored?.spec) as { template?: { metadata?: unknown } } | undefined;
  if (spec?.template) delete spec.template.metadata;
  return outcome.stored ? { stored: { spec } } : outcome;
}

describe('an embedded pod template behaves as with the controller-gen CRD of the same Go API', () => {
  it('accepts a pod template and defaults it the same way (container port protocol TCP)', async () => {
    const [opgen, go] = await both(template({ containers: [container] }));
    expect(opgen.refused).toBeUndefined();
    expect(opgen).toEqual(go);
    const stored = opgen.stored?.spec as { template: { spec: { containers: { ports: { protocol: string }[] }[] } } };
    expect(stored.template.spec.containers[0]?.ports[0]?.protocol).toBe('TCP');
  });

  it.each([
    ['a restart policy the pinned Pod API does not list (a newer cluster may)', { restartPolicy: 'OnSuccess', containers: [container] }],
    ['an image pull policy in any spelling', { containers: [{ ...container, imagePullPolicy: 'Sometimes' }] }],
    ['a DNS policy and a preemption policy the schema has no enum for', { dnsPolicy: 'Custom', preemptionPolicy: 'Later', containers: [container] }],
  ])('accepts %s, as controller-gen does (no enum, no default beyond its markers)', async (_, podSpec) => {
    const [opgen, go] = await both(template(podSpec));
    expect(opgen.refused).toBeUndefined();
    expect(opgen).toEqual(go);
  });

  it('prunes unknown fields the same way', async () => {
    const [opgen, go] = await both({ ...template({ containers: [{ ...container, colour: 'blue' }] }), flavour: 'x' });
    expect(opgen).toEqual(go);
    expect(JSON.stringify(opgen.stored)).not.toMatch(/colour|flavour/);
  });

  it.each([
    ['a container without a name', { containers: [{ image: 'nginx' }] }],
    ['a pod without containers', {}],
    ['a quantity that is not one', { containers: [{ ...container, resources: { limits: { cpu: 'lots' } } }] }],
    ['two containers with one name (a map list keyed by name)', { containers: [container, container] }],
    ['a port that is not a number', { containers: [{ ...container, ports: [{ containerPort: 'eighty' }] }] }],
  ])('rejects %s with the same message', async (_, podSpec) => {
    const [opgen, go] = await both(template(podSpec));
    expect(opgen.refused).toBeDefined();
    expect(opgen).toEqual(go);
  });

  it('keeps the template labels controller-gen prunes, the one deliberate difference (docs/api-types.md)', async () => {
    const metadata = { labels: { app: 'web' }, annotations: { note: 'kept' } };
    const [opgen, go] = await both(template({ containers: [container] }, metadata));
    expect(withoutTemplateMetadata(opgen)).toEqual(withoutTemplateMetadata(go));
    expect((opgen.stored?.spec as { template: { metadata: unknown } }).template.metadata).toEqual(metadata);
    expect((go.stored?.spec as { template: { metadata?: unknown } }).template.metadata).toEqual({});
  });
});
