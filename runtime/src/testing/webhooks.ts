import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeConfig, KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import { clientNode } from '../rest/client-node.js';
import { defaultingHandler, validatingHandler } from '../webhook/admission.js';
import { deny } from '../webhook/deny.js';
import { CONVERT_PATH } from '../webhook/paths.js';
import type { WebhookServer } from '../webhook/server.js';
import { FIELD_MANAGER } from './crds.js';

/** What {@link installWebhooks} installs. */
export interface InstallWebhooksOptions {
  /** The test's webhook server, started (e.g. `serveWebhooks(mgr, { port: 0, host: '127.0.0.1', certificate })`). */
  server: Pick<WebhookServer, 'url' | 'certificatePem' | 'register' | 'conversionReviews'>;
  /**
   * MutatingWebhookConfiguration and ValidatingWebhookConfiguration manifests: files or
   * directories (controller-gen's `config/webhook/manifests.yaml`), or the objects.
   */
  configurations?: string | string[] | KubernetesObject[];
  /** Names of the CRDs whose conversion goes to the server's `/convert`. */
  conversionCRDs?: string[];
  /** Default 30 000. */
  timeoutMs?: number;
}

type WebhookEntry = { clientConfig?: { url?: string; caBundle?: string; service?: { path?: string } } };
type Configuration = KubernetesObject & { webhooks?: WebhookEntry[] };

const CONFIGURATION_KINDS = new Set(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);

function readConfigurations(source: string | string[] | KubernetesObject[]): Configuration[] {
  if (Array.isArray(source) && source.some((s) => typeof s !== 'string')) return (source as KubernetesObject[]).filter((o) => CONFIGURATION_KINDS.has(o.kind ?? ''));
  const paths = typeof source === 'string' ? [source] : (source as string[]);
  const found = paths.flatMap((path) => {
    let files: string[];
    try {
      files = statSync(path).isDirectory() ? readdirSync(path).filter((n) => ['.yaml', '.yml', '.json'].includes(extname(n))).sort().map((n) => join(path, n)) : [path];
    } catch {
      throw new Error(`webhook configuration path ${path} does not exist`);
    }
    return files.flatMap((file) => clientNode().loadAllYaml(readFileSync(file, 'utf8')) as Configuration[]);
  });
  const configurations = found.filter((o) => CONFIGURATION_KINDS.has(o?.kind ?? ''));
  if (configurations.length === 0) throw new Error(`no webhook configuration found in ${paths.join(', ')}`);
  return configurations;
}

/**
 * The configuration pointed at the local server: each webhook's `service` becomes the
 * server's URL with the service's path, and the server's certificate its CA bundle.
 */
function pointedAt(configuration: Configuration, url: string, caBundle: string): Configuration {
  const copy = structuredClone(configuration);
  for (const entry of copy.webhooks ?? []) {
    const path = entry.clientConfig?.service?.path ?? new URL(entry.clientConfig?.url ?? url).pathname;
    entry.clientConfig = { url: `${url}${path === '/' ? '' : path}`, caBundle };
  }
  return copy;
}

let probes = 0;

/**
 * Installs a project's webhooks against a webhook server running in the test, like
 * envtest's WebhookInstallOptions: rewrites each webhook's service reference to the
 * server's URL, trusts the server's certificate, points the named CRDs' conversion at
 * `/convert`, and then proves that the API server reaches the server, by a dry-run create
 * that a probe mutating and a probe validating webhook must both see (envtest only reads
 * the configuration back). Resolves once the API server calls the server.
 *
 * @example
 * const server = serveWebhooks(mgr, {
 *   host: '127.0.0.1',
 *   port: 0,
 *   certificate: selfSignedCertificate(),
 * });
 * void mgr.start();
 * await installWebhooks(cp.kubeConfig, {
 *   server,
 *   configurations: 'config/webhook',
 *   conversionCRDs: ['widgets.example.com'],
 * });
 */
export async function installWebhooks(kubeConfig: KubeConfig, options: InstallWebhooksOptions): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (options.server.url === undefined) {
    if (Date.now() > deadline) throw new Error('the webhook server did not start listening: start the manager before installWebhooks');
    await sleep(20);
  }
  const url = options.server.url;
  const caBundle = Buffer.from(options.server.certificatePem).toString('base64');
  const { KubernetesObjectApi, PatchStrategy } = clientNode();
  const api = KubernetesObjectApi.makeApiClient(kubeConfig);
  const apply = (object: KubernetesObject) => api.patch(object, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);

  for (const configuration of options.configurations ? readConfigurations(options.configurations) : []) {
    await apply(pointedAt(configuration, url, caBundle));
  }
  for (const name of options.conversionCRDs ?? []) {
    await api.patch(
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name },
        spec: { conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1', 'v1beta1'], clientConfig: { url: `${url}${CONVERT_PATH}`, caBundle } } } },
      } as KubernetesObject,
      undefined,
      undefined,
      FIELD_MANAGER,
      undefined,
      PatchStrategy.MergePatch,
    );
  }
  await proveReachable(api, options.server, url, caBundle, deadline);
  for (const name of options.conversionCRDs ?? []) await proveConversion(kubeConfig, api, options.server, name, deadline);
}

// As the typed client reads it: keys that are not JavaScript identifiers are renamed.
type Schema = {
  type?: string;
  _default?: unknown;
  _enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: boolean;
  x_kubernetes_int_or_string?: boolean;
};

/**
 * The smallest value `schema` accepts, as far as its structural rules tell: required
 * fields filled in, lengths and minimums met. The API server validates a create before it
 * converts it, so a probe missing a required `spec` never reaches the webhook.
 */
function minimalValue(schema: Schema | undefined): unknown {
  if (!schema) return {};
  if (schema._default !== undefined) return schema._default;
  if (schema._enum?.length) return schema._enum[0];
  if (schema.x_kubernetes_int_or_string) return 0;
  switch (schema.type) {
    case 'string':
      return 'a'.repeat(schema.minLength ?? 0);
    case 'integer':
    case 'number':
      return (schema.minimum ?? 0) + (schema.exclusiveMinimum ? 1 : 0);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalValue(schema.items));
    default:
      return Object.fromEntries((schema.required ?? []).map((name) => [name, minimalValue(schema.properties?.[name])]));
  }
}

/**
 * Dry-run creates the smallest valid object of a version that is not stored until the
 * server has answered a conversion review: the API server converts to the storage version
 * before storing, so the call proves `/convert` is used, whatever the conversion answers.
 */
async function proveConversion(kubeConfig: KubeConfig, api: KubernetesObjectApi, server: InstallWebhooksOptions['server'], name: string, deadline: number): Promise<void> {
  const crd = await kubeConfig.makeApiClient(clientNode().ApiextensionsV1Api).readCustomResourceDefinition({ name });
  const spoke = crd.spec.versions.find((v) => v.served && !v.storage);
  if (!spoke) throw new Error(`CRD ${name} has no served version besides its storage version: nothing to convert`);
  const { apiVersion: _a, kind: _k, metadata: _m, ...fields } = minimalValue(spoke.schema?.openAPIV3Schema as Schema | undefined) as Record<string, unknown>;
  const probe = {
    ...fields,
    apiVersion: `${crd.spec.group}/${spoke.name}`,
    kind: crd.spec.names.kind,
    metadata: { generateName: 'opgen-install-probe-', ...(crd.spec.scope === 'Namespaced' ? { namespace: 'default' } : {}) },
  };
  let last = 'no answer';
  for (;;) {
    const before = server.conversionReviews;
    await api.create(probe, undefined, 'All').catch((error: unknown) => {
      last = ((error as { body?: string }).body ?? (error as Error).message).toString().split('\n')[0]!;
    });
    if (server.conversionReviews > before) return;
    if (Date.now() > deadline) throw new Error(`the API server does not call the conversion webhook of ${name} (last answer to a probe: ${last})`);
    await sleep(100);
  }
}

/**
 * Registers a probe mutating and validating webhook on the server, for ConfigMaps with a
 * one-off label, and dry-run creates one until the validating probe refuses it having
 * seen the mutating probe's annotation: both admission paths, TLS and CA included, work.
 */
async function proveReachable(api: KubernetesObjectApi, server: InstallWebhooksOptions['server'], url: string, caBundle: string, deadline: number): Promise<void> {
  const id = `${process.pid}-${++probes}-${randomBytes(3).toString('hex')}`;
  const label = 'opgen.dev/install-probe';
  const annotation = 'opgen.dev/install-probe-mutated';
  const verdict = `opgen install probe ${id} passed`;
  server.register(`/opgen-install-probe-mutate-${id}`, defaultingHandler((object: { metadata?: { annotations?: Record<string, string> } }) => {
    object.metadata = { ...object.metadata, annotations: { ...object.metadata?.annotations, [annotation]: id } };
  }));
  server.register(`/opgen-install-probe-validate-${id}`, validatingHandler({
    create: (object: { metadata?: { annotations?: Record<string, string> } }) => {
      throw deny(object.metadata?.annotations?.[annotation] === id ? verdict : `opgen install probe ${id}: the mutating webhook was not called`);
    },
  }));
  const webhook = (kind: string) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name: `opgen-install-probe-${kind.toLowerCase()}-${id}` },
    webhooks: [
      {
        name: `${kind.toLowerCase()}.probe.opgen.dev`,
        clientConfig: { url: `${url}/opgen-install-probe-${kind === 'Mutating' ? 'mutate' : 'validate'}-${id}`, caBundle },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
        objectSelector: { matchLabels: { [label]: id } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Fail',
        timeoutSeconds: 5,
      },
    ],
  });
  const configurations = [webhook('Mutating'), webhook('Validating')];
  for (const configuration of configurations) await api.create(configuration as KubernetesObject);
  let last: string;
  try {
    for (;;) {
      try {
        await api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `probe-${id}`, namespace: 'default', labels: { [label]: id } } }, undefined, 'All');
        last = 'the dry-run create was admitted without the webhooks';
      } catch (error) {
        last = (error as Error).message;
        if (last.includes(verdict)) return;
      }
      if (Date.now() > deadline) throw new Error(`the API server does not reach the webhook server at ${url}: ${last.split('\n')[0]}`);
      await sleep(100);
    }
  } finally {
    for (const configuration of configurations) await api.delete(configuration as KubernetesObject).catch(() => {});
  }
}
