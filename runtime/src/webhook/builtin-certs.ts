import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { defineKind } from '../api/kind.js';
import { createClient, isAlreadyExists, isConflict, kinds, retryOnConflict, type Client } from '../client/index.js';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from '../log/index.js';
import { issueCertificate, type CertificateKeyPair } from '../manager/self-signed-cert.js';
import type { ServingCertificate } from '../manager/serving-cert.js';

/** Where the built-in certificates live and whom they are for. */
export interface BuiltInCertificateOptions {
  /** The Secret holding `ca.crt`, `ca.key`, `tls.crt` and `tls.key`; created when missing. */
  secret: { namespace: string; name: string };
  /** DNS names and IPs the serving certificate is for, e.g. `webhook-service.system.svc`. */
  hosts: string[];
  /** Configurations whose every webhook gets the CA as `caBundle`. */
  mutatingWebhookConfigurations?: string[];
  validatingWebhookConfigurations?: string[];
  /** CRDs whose conversion webhook gets the CA as `caBundle`. */
  crds?: string[];
  /** Lifetime of the serving certificate; default 365 days. The CA lives ten times as long. */
  validDays?: number;
  /** How often the Secret is re-read (another replica renewed it) and the leaf checked; default 60 000. */
  refreshMs?: number;
}

/** The built-in certificates, loaded from (or first written to) their Secret. */
export interface BuiltInCertificate extends ServingCertificate {
  /** The CA clients must trust, PEM. */
  readonly caPem: string;
  /** Stops re-reading the Secret. */
  stop(): void;
}

interface Bundle extends CertificateKeyPair {
  caPem: string;
  caKeyPem: string;
}

type WebhookConfiguration = { metadata?: { name?: string }; webhooks?: Array<{ clientConfig?: { caBundle?: string } }> };
const MutatingWebhookConfiguration = defineKind<WebhookConfiguration>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'MutatingWebhookConfiguration', plural: 'mutatingwebhookconfigurations', namespaced: false });
const ValidatingWebhookConfiguration = defineKind<WebhookConfiguration>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration', plural: 'validatingwebhookconfigurations', namespaced: false });

const DAY_MS = 24 * 60 * 60 * 1000;
const CA_NAME = 'opgen-webhook-ca';

function decode(data: Record<string, string> | undefined, key: string): string | undefined {
  const value = data?.[key];
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

function readBundle(data: Record<string, string> | undefined): Bundle | undefined {
  const [caPem, caKeyPem, certPem, keyPem] = ['ca.crt', 'ca.key', 'tls.crt', 'tls.key'].map((key) => decode(data, key));
  if (!caPem || !caKeyPem || !certPem || !keyPem) return undefined;
  return { caPem, caKeyPem, certPem, keyPem };
}

/** Whether the CA can still sign and the leaf is signed by it, covers `hosts` and has a third of its life left. */
function usable(bundle: Bundle, hosts: string[], now: Date): { ca: boolean; leaf: boolean } {
  try {
    const ca = new X509Certificate(bundle.caPem);
    const leaf = new X509Certificate(bundle.certPem);
    const caOk = new Date(ca.validTo).getTime() - now.getTime() > (new Date(ca.validTo).getTime() - new Date(ca.validFrom).getTime()) / 3;
    const lifetime = new Date(leaf.validTo).getTime() - new Date(leaf.validFrom).getTime();
    const leafOk =
      caOk &&
      leaf.verify(ca.publicKey) &&
      new Date(leaf.validTo).getTime() - now.getTime() > lifetime / 3 &&
      hosts.every((host) => (isIP(host) ? leaf.checkIP(host) : leaf.checkHost(host)) !== undefined);
    return { ca: caOk, leaf: leafOk };
  } catch {
    return { ca: false, leaf: false };
  }
}

function issue(options: BuiltInCertificateOptions, ca: { caPem: string; caKeyPem: string } | undefined): Bundle {
  const validDays = options.validDays ?? 365;
  const authority = ca ?? (() => {
    const pair = issueCertificate({ ca: true, commonName: CA_NAME, validDays: validDays * 10 });
    return { caPem: pair.certPem, caKeyPem: pair.keyPem };
  })();
  const leaf = issueCertificate({ hosts: options.hosts, validDays, issuer: { commonName: CA_NAME, keyPem: authority.caKeyPem } });
  return { ...authority, ...leaf };
}

function secretData(bundle: Bundle): Record<string, string> {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  return { 'ca.crt': b64(bundle.caPem), 'ca.key': b64(bundle.caKeyPem), 'tls.crt': b64(bundle.certPem), 'tls.key': b64(bundle.keyPem) };
}

/**
 * The bundle in the Secret, renewed when needed. Replicas agree through the Secret: the
 * first create wins (AlreadyExists sends the others back to read it), and a renewal is
 * an update at the resourceVersion that was read, so a replica that loses the race reads
 * the winner's certificates instead of overwriting them.
 */
async function ensureBundle(client: Client, options: BuiltInCertificateOptions, log: Logger): Promise<Bundle> {
  const { namespace, name } = options.secret;
  for (;;) {
    const secret = await client.get(kinds.Secret, name, namespace);
    const existing = readBundle(secret?.data);
    const state = existing ? usable(existing, options.hosts, new Date()) : { ca: false, leaf: false };
    if (existing && state.leaf) return existing;
    const bundle = issue(options, existing && state.ca ? existing : undefined);
    try {
      if (!secret) {
        await client.create(kinds.Secret, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', data: secretData(bundle) });
        log.info({ secret: `${namespace}/${name}` }, 'Created the webhook CA and serving certificate');
      } else {
        await client.update(kinds.Secret, { ...secret, data: { ...secret.data, ...secretData(bundle) } });
        log.info({ secret: `${namespace}/${name}`, newCA: !state.ca }, 'Renewed the webhook serving certificate');
      }
      return bundle;
    } catch (error) {
      // Another replica wrote first: use what it wrote.
      if (!isAlreadyExists(error) && !isConflict(error)) throw error;
    }
  }
}

/** Writes `caPem` as the caBundle of the configured webhook configurations and CRDs. */
async function injectCA(client: Client, options: BuiltInCertificateOptions, caPem: string): Promise<void> {
  const caBundle = Buffer.from(caPem).toString('base64');
  const configurations = [
    ...(options.mutatingWebhookConfigurations ?? []).map((name) => [MutatingWebhookConfiguration, name] as const),
    ...(options.validatingWebhookConfigurations ?? []).map((name) => [ValidatingWebhookConfiguration, name] as const),
  ];
  for (const [kind, name] of configurations) {
    await retryOnConflict(async () => {
      const configuration = await client.get(kind, name);
      if (!configuration) throw new Error(`${kind.kind} ${name} does not exist: the built-in certificates cannot be injected into it`);
      if ((configuration.webhooks ?? []).every((w) => w.clientConfig?.caBundle === caBundle)) return;
      for (const webhook of configuration.webhooks ?? []) webhook.clientConfig = { ...webhook.clientConfig, caBundle };
      await client.update(kind, configuration);
    });
  }
  for (const name of options.crds ?? []) {
    await retryOnConflict(async () => {
      const crd = await client.get(kinds.CustomResourceDefinition, name);
      const webhook = crd?.spec.conversion?.webhook;
      if (!crd || !webhook?.clientConfig) throw new Error(`CRD ${name} does not exist or has no conversion webhook: the built-in certificates cannot be injected into it`);
      if (webhook.clientConfig.caBundle === caBundle) return;
      webhook.clientConfig.caBundle = caBundle;
      await client.update(kinds.CustomResourceDefinition, crd);
    });
  }
}

/**
 * Loads (or creates) the webhook's CA and serving certificate from their Secret, injects
 * the CA into the configured webhook configurations and CRDs, and keeps all three current:
 * every `refreshMs` the Secret is re-read and renewed when the leaf nears its end, and
 * watchers get the new pair to serve without a restart.
 */
export async function builtInCertificate(kubeConfig: KubeConfig, options: BuiltInCertificateOptions, log: Logger): Promise<BuiltInCertificate> {
  // An uncached client: reading one Secret must not start a cluster-wide Secret informer.
  const client = createClient(kubeConfig);
  let bundle = await ensureBundle(client, options, log);
  await injectCA(client, options, bundle.caPem);
  const watchers = new Set<(pair: CertificateKeyPair) => void>();
  const timer = setInterval(() => {
    void (async () => {
      const next = await ensureBundle(client, options, log);
      if (next.caPem !== bundle.caPem) await injectCA(client, options, next.caPem);
      if (next.certPem === bundle.certPem && next.keyPem === bundle.keyPem && next.caPem === bundle.caPem) return;
      bundle = next;
      log.info({ secret: `${options.secret.namespace}/${options.secret.name}` }, 'Reloaded the webhook serving certificate');
      for (const watcher of watchers) watcher({ certPem: bundle.certPem, keyPem: bundle.keyPem });
    })().catch((error: unknown) => log.error({ err: error }, 'Cannot refresh the webhook certificates; serving the current ones'));
  }, options.refreshMs ?? 60_000);
  timer.unref();
  return {
    get current() {
      return { certPem: bundle.certPem, keyPem: bundle.keyPem };
    },
    get caPem() {
      return bundle.caPem;
    },
    files: null,
    watch(onChange) {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
    stop: () => clearInterval(timer),
  };
}
