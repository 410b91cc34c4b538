import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { defineKind } from '../api/kind.js';
import { createClient, isAlreadyExists, isConflict, kinds, retryOnConflict, type Client } from '../client/index.js';
import type { Cluster } from '../rest/cluster.js';
import type { KubeConfig } from '../rest/kubeconfig.js';
import type { Logger } from '../log/index.js';
import { CLOCK_SKEW_MS, issueCertificate, type CertificateKeyPair, type ServingCertificate } from '../certs/index.js';

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
  /** Lifetime of the serving certificate; default 365 days. */
  validDays?: number;
  /** Lifetime of the serving certificate in milliseconds (`--webhook-cert-validity`); wins over `validDays`. */
  validMs?: number;
  /**
   * Lifetime of the CA in milliseconds (`--webhook-ca-validity`); default ten times the serving
   * certificate's. Not shorter than the serving certificate's: the CA signs it for its whole life.
   */
  caValidMs?: number;
  /**
   * How long a new CA is trusted before it signs the serving certificate; default 300 000, or a
   * sixth of the CA's lifetime when that is shorter (the CA is rotated with a third left, and
   * the new one must sign before the old one expires).
   */
  caOverlapMs?: number;
  /** How often the Secret is re-read (another replica renewed it) and the leaf checked; default 60 000. */
  refreshMs?: number;
}

/** The built-in certificates, loaded from (or first written to) their Secret. */
export interface BuiltInCertificate extends ServingCertificate {
  /** The CAs clients must trust, PEM: more than one during a CA rotation. */
  readonly caPem: string;
  /** Stops re-reading the Secret. */
  stop(): void;
}

interface Authority {
  caPem: string;
  caKeyPem: string;
}

/** What the Secret holds: the CA, the serving pair, and during a CA rotation the next or previous CA. */
interface Bundle extends CertificateKeyPair, Authority {
  /** A new CA trusted (in every caBundle) before anything is signed by it. */
  next?: Authority & { since: number };
  /** The CA before the last rotation, trusted until it expires: a replica may still serve its leaf. */
  previousCaPem?: string;
}

type WebhookConfiguration = { metadata?: { name?: string }; webhooks?: Array<{ clientConfig?: { caBundle?: string } }> };
const MutatingWebhookConfiguration = defineKind<WebhookConfiguration>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'MutatingWebhookConfiguration', plural: 'mutatingwebhookconfigurations', namespaced: false });
const ValidatingWebhookConfiguration = defineKind<WebhookConfiguration>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration', plural: 'validatingwebhookconfigurations', namespaced: false });

const CA_NAME = 'opgen-webhook-ca';
/** When the next CA entered the trust bundles; it signs only once every caBundle has had time to hold it. */
const NEXT_SINCE_KEY = 'ca-next.since';

function decode(data: Record<string, string> | undefined, key: string): string | undefined {
  const value = data?.[key];
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

function readBundle(data: Record<string, string> | undefined): Bundle | undefined {
  const [caPem, caKeyPem, certPem, keyPem, nextCaPem, nextCaKeyPem, since, previousCaPem] = ['ca.crt', 'ca.key', 'tls.crt', 'tls.key', 'ca-next.crt', 'ca-next.key', NEXT_SINCE_KEY, 'ca-previous.crt'].map((key) => decode(data, key));
  if (!caPem || !caKeyPem || !certPem || !keyPem) return undefined;
  return {
    caPem,
    caKeyPem,
    certPem,
    keyPem,
    ...(nextCaPem && nextCaKeyPem && since ? { next: { caPem: nextCaPem, caKeyPem: nextCaKeyPem, since: Number(since) } } : {}),
    ...(previousCaPem ? { previousCaPem } : {}),
  };
}

function secretData(bundle: Bundle): Record<string, string> {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  return {
    'ca.crt': b64(bundle.caPem),
    'ca.key': b64(bundle.caKeyPem),
    'tls.crt': b64(bundle.certPem),
    'tls.key': b64(bundle.keyPem),
    ...(bundle.next ? { 'ca-next.crt': b64(bundle.next.caPem), 'ca-next.key': b64(bundle.next.caKeyPem), [NEXT_SINCE_KEY]: b64(String(bundle.next.since)) } : {}),
    ...(bundle.previousCaPem ? { 'ca-previous.crt': b64(bundle.previousCaPem) } : {}),
  };
}

/**
 * Whether `pem` has more than a third of its lifetime left (false when it does not parse).
 * The lifetime counts from issue, not from the backdated start: with an hour of clock-skew
 * margin a one-minute certificate would otherwise never count as fresh.
 */
function fresh(pem: string, now: number): boolean {
  try {
    const cert = new X509Certificate(pem);
    const issued = new Date(cert.validFrom).getTime() + CLOCK_SKEW_MS;
    const to = new Date(cert.validTo).getTime();
    return to - now > (to - issued) / 3;
  } catch {
    return false;
  }
}

/** Whether `pem` is past its end (true when it does not parse: it must be replaced either way). */
function expired(pem: string, now: number): boolean {
  try {
    return new Date(new X509Certificate(pem).validTo).getTime() <= now;
  } catch {
    return true;
  }
}

/** Whether the leaf is signed by the CA, covers `hosts` and is fresh. */
function leafUsable(bundle: Bundle, hosts: string[], now: number): boolean {
  try {
    const leaf = new X509Certificate(bundle.certPem);
    return (
      leaf.verify(new X509Certificate(bundle.caPem).publicKey) &&
      fresh(bundle.certPem, now) &&
      hosts.every((host) => (isIP(host) ? leaf.checkIP(host) : leaf.checkHost(host)) !== undefined)
    );
  } catch {
    return false;
  }
}

/** The CAs every client must trust now, PEMs concatenated: current, next and unexpired previous. */
export function trustBundle(bundle: Pick<Bundle, 'caPem' | 'next' | 'previousCaPem'>, now = Date.now()): string {
  const previous = bundle.previousCaPem && !expired(bundle.previousCaPem, now) ? bundle.previousCaPem : '';
  return `${bundle.caPem}${bundle.next?.caPem ?? ''}${previous}`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The serving certificate's lifetime in milliseconds. */
function leafLifetimeMs(options: BuiltInCertificateOptions): number {
  return options.validMs ?? (options.validDays ?? 365) * DAY_MS;
}

/** The CA's lifetime in milliseconds. */
function caLifetimeMs(options: BuiltInCertificateOptions): number {
  return options.caValidMs ?? leafLifetimeMs(options) * 10;
}

function newAuthority(options: BuiltInCertificateOptions): Authority {
  const pair = issueCertificate({ ca: true, commonName: CA_NAME, validMs: caLifetimeMs(options) });
  return { caPem: pair.certPem, caKeyPem: pair.keyPem };
}

function newLeaf(options: BuiltInCertificateOptions, authority: Authority): CertificateKeyPair {
  return issueCertificate({ hosts: options.hosts, validMs: leafLifetimeMs(options), issuer: { commonName: CA_NAME, keyPem: authority.caKeyPem } });
}

/**
 * The next state of the Secret, or `undefined` when it needs no change. A CA nearing its
 * end is rotated in two steps, so that no client ever sees a leaf it cannot verify: first
 * the next CA joins the trust bundle; only `caOverlapMs` later does it sign the leaf, while
 * the old CA stays trusted until it expires.
 */
function nextBundle(existing: Bundle | undefined, options: BuiltInCertificateOptions, now: number): Bundle | undefined {
  // Nothing usable, or a CA already expired (the operator was down through its rotation): start over.
  if (!existing || expired(existing.caPem, now)) {
    const authority = newAuthority(options);
    return { ...authority, ...newLeaf(options, authority) };
  }
  if (existing.next && now - existing.next.since >= (options.caOverlapMs ?? Math.min(300_000, caLifetimeMs(options) / 6))) {
    const { next, ...rest } = existing;
    return { ...rest, caPem: next.caPem, caKeyPem: next.caKeyPem, previousCaPem: existing.caPem, ...newLeaf(options, next) };
  }
  if (!existing.next && !fresh(existing.caPem, now)) return { ...existing, next: { ...newAuthority(options), since: now } };
  if (!leafUsable(existing, options.hosts, now)) return { ...existing, ...newLeaf(options, existing) };
  if (existing.previousCaPem && expired(existing.previousCaPem, now)) {
    return { ...existing, previousCaPem: undefined };
  }
  return undefined;
}

/** What a renewal of the Secret did, for its log line. */
export function renewalStep(before: Bundle | undefined, after: Bundle): string {
  if (!before) return 'new CA';
  if (after.caPem !== before.caPem) return before.next?.caPem === after.caPem ? 'next CA signing' : 'new CA (the old one had expired)';
  if (after.next && !before.next) return 'next CA trusted';
  if (after.certPem !== before.certPem) return 'serving certificate renewed';
  if (before.previousCaPem && !after.previousCaPem) return 'expired previous CA dropped';
  return 'none';
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
    const bundle = nextBundle(existing, options, Date.now());
    if (!bundle) return existing!;
    try {
      if (!secret) {
        await client.create(kinds.Secret, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', data: secretData(bundle) });
        log.info({ secret: `${namespace}/${name}` }, 'Created the webhook CA and serving certificate');
      } else {
        // The whole data is replaced: keys of a finished rotation (ca-next.*) must go.
        await client.update(kinds.Secret, { ...secret, data: secretData(bundle) });
        log.info({ secret: `${namespace}/${name}`, step: renewalStep(existing, bundle) }, 'Renewed the webhook certificates');
      }
      return bundle;
    } catch (error) {
      // Another replica wrote first: use what it wrote.
      if (!isAlreadyExists(error) && !isConflict(error)) throw error;
    }
  }
}

/** Writes the PEMs `caPem` as the caBundle of the configured webhook configurations and CRDs. */
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
export async function builtInCertificate(cluster: Cluster | KubeConfig, options: BuiltInCertificateOptions, log: Logger): Promise<BuiltInCertificate> {
  if (caLifetimeMs(options) < leafLifetimeMs(options)) {
    throw new Error(`the webhook CA's validity (${caLifetimeMs(options)}ms) must not be shorter than the serving certificate's (${leafLifetimeMs(options)}ms)`);
  }
  // An uncached client: reading one Secret must not start a cluster-wide Secret informer. Its
  // requests go through the manager's cluster: its tokens, its request metrics.
  const client = createClient(cluster);
  let bundle = await ensureBundle(client, options, log);
  // What the caBundles hold: compared with what they should hold now, which changes on
  // its own when a previous CA expires, not only when the Secret does.
  let injected = trustBundle(bundle);
  await injectCA(client, options, injected);
  const watchers = new Set<(pair: CertificateKeyPair) => void>();
  const timer = setInterval(() => {
    void (async () => {
      const next = await ensureBundle(client, options, log);
      const trust = trustBundle(next);
      // Trust first, serve second: a caller never meets a leaf its caBundle cannot verify.
      if (trust !== injected) {
        await injectCA(client, options, trust);
        if (trust.length < injected.length) log.info({ secret: `${options.secret.namespace}/${options.secret.name}` }, 'Dropped an expired CA from the caBundles');
        injected = trust;
      }
      if (next.certPem === bundle.certPem && next.keyPem === bundle.keyPem) {
        bundle = next;
        return;
      }
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
      return trustBundle(bundle);
    },
    files: null,
    watch(onChange) {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
    stop: () => clearInterval(timer),
  };
}
