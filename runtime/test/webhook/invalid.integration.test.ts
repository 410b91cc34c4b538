import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineKind } from '../../src/api/kind.js';
import { ApiError, createClient, type Client } from '../../src/client/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { selfSignedCertificate } from '../../src/certs/self-signed-cert.js';
import { installCRDs, installWebhooks, kubectlFor, startControlPlane, type ControlPlane, type Kubectl } from '../../src/testing/index.js';
import { invalid, serveWebhooks, webhook, type FieldError } from '../../src/webhook/index.js';
import { SHELF_CRD, SHELF_WEBHOOKS, ShelfV2 } from '../fixtures/webhooks/shelf.js';

// invalid() must answer as the API server's own validation does (apierrors.NewInvalid): the
// same 422 Status, causes and message, and the same kubectl output. The reference is a Crate,
// which the API server itself refuses by its schema; the Shelf is refused by our webhook with
// the same field errors.
const CRATE_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: crates.test.opgen.dev }
spec:
  group: test.opgen.dev
  names: { kind: Crate, listKind: CrateList, plural: crates, singular: crate }
  scope: Namespaced
  versions:
    - name: v1alpha2
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                replicas: { type: integer, minimum: 1 }
                tier: { type: string, enum: [gold, silver] }
`;
const Crate = defineKind<{ metadata?: { name?: string; namespace?: string }; spec: { replicas?: number; tier?: string } }>({
  group: 'test.opgen.dev',
  version: 'v1alpha2',
  kind: 'Crate',
  plural: 'crates',
  namespaced: true,
});

/** The field errors our webhook reports, as Go's field.NotSupported / field.Invalid would. */
const byField: Record<string, FieldError> = {
  'spec.tier': { field: 'spec.tier', type: 'NotSupported', value: 'bronze', detail: 'supported values: "gold", "silver"' },
  'spec.replicas': { field: 'spec.replicas', type: 'Invalid', value: 0, detail: 'spec.replicas in body should be greater than or equal to 1' },
};

async function refusal(write: () => Promise<unknown>): Promise<ApiError> {
  const error = await write().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('invalid() through a real API server', () => {
  let cp: ControlPlane;
  let kubectl: Kubectl;
  let client: Client;
  let mgr: Manager;
  let running: Promise<void>;
  let errors: FieldError[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'opgen-invalid-'));

  beforeAll(async () => {
    cp = await startControlPlane();
    kubectl = kubectlFor(cp);
    writeFileSync(join(dir, 'crate.yaml'), CRATE_CRD);
    await installCRDs(cp.kubeConfig, [SHELF_CRD, join(dir, 'crate.yaml')]);
    mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent', healthProbeBindAddress: '127.0.0.1:0' });
    const server = serveWebhooks(mgr, { host: '127.0.0.1', port: 0, certificate: selfSignedCertificate() });
    webhook(mgr)
      .for(ShelfV2)
      .default((shelf) => {
        shelf.spec.image ??= 'nginx:1.27';
      })
      .validate({
        create: () => {
          if (errors.length) throw invalid(errors);
        },
      });
    running = mgr.start();
    await installWebhooks(cp.kubeConfig, { server, configurations: SHELF_WEBHOOKS });
    client = createClient(cp.kubeConfig);
  });
  afterAll(async () => {
    mgr?.stop();
    await running;
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 422 Invalid with the causes and message the API server builds for the same field errors', async () => {
    const own = await refusal(() => client.create(Crate, { metadata: { name: 'bad', namespace: 'default' }, spec: { replicas: 0, tier: 'bronze' } }));
    const ownCauses = own.status?.details?.causes ?? [];
    expect(ownCauses.map((c) => c.field).sort()).toEqual(['spec.replicas', 'spec.tier']);

    errors = ownCauses.map((c) => byField[c.field!]!);
    const ours = await refusal(() => client.create(ShelfV2, { metadata: { name: 'bad', namespace: 'default' }, spec: { replicas: 0, tier: 'bronze' } }));
    expect(ours.code).toBe(422);
    expect(ours.reason).toBe('Invalid');
    expect(ours.status?.details).toEqual({ ...own.status?.details, kind: 'Shelf' });
    expect(ours.status?.status).toBe('Failure');
    expect(ours.message).toBe(`admission webhook "vshelf-v1alpha2.kb.io" denied the request: ${own.message.replace('Crate.', 'Shelf.')}`);
  });

  it('shows kubectl users each cause, as for the API server\'s own refusal', async () => {
    errors = [byField['spec.tier']!];
    const ownOutput = await kubectl.run(['create', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Crate', metadata: { name: 'one', namespace: 'default' }, spec: { tier: 'bronze' } }),
    });
    const ours = await kubectl.run(['create', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: 'one', namespace: 'default' }, spec: { tier: 'bronze' } }),
    });
    expect(ours.code).toBe(1);
    expect(ownOutput.stderr).toContain('spec.tier: Unsupported value: "bronze": supported values: "gold", "silver"');
    expect(ours.stderr).toBe(ownOutput.stderr.replace('Crate', 'Shelf'));
  });
});
