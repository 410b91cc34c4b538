import type { Agent } from 'node:http';
import { cachedFile, type CachedFile } from './cached-file.js';
import { clientNode } from './client-node.js';
import { execCredentialSource } from './exec-credential.js';
import { currentContextOf, type KubeConfig, type KubeConfigCluster, type KubeConfigUser } from './kubeconfig.js';

/** What one request carries to the API server: TLS settings and headers. */
export interface RequestAuth {
  headers: Record<string, string>;
  ca?: Buffer | string;
  cert?: Buffer | string;
  key?: Buffer | string;
  servername?: string;
  rejectUnauthorized: boolean;
  /** Set only by `@kubernetes/client-node` for a `proxy-url`: the agent that goes through the proxy. */
  agent?: Agent;
}

/** The credentials of a kubeconfig's current context; see {@link credentialsFor}. */
export interface Credentials {
  /** TLS settings and headers of the next request: token files and plugins as fresh as their periods allow. */
  apply(): Promise<RequestAuth>;
  /** The server answered 401: the next `apply` re-reads token files and re-runs the exec plugin. */
  rejected(): void;
}

/** client-go re-reads a token file every minute… */
const TOKEN_FILE_PERIOD_MS = 60_000;
/** …and client certificate files every five. */
const CERT_FILE_PERIOD_MS = 5 * 60_000;

/** A kubeconfig of `@kubernetes/client-node`, which authenticates by itself. */
interface ClientNodeKubeConfig extends KubeConfig {
  applyToHTTPSOptions(options: object): Promise<void>;
}

/**
 * The credentials of `kubeConfig`'s current context: CA, client certificate and key (data
 * or files), bearer token or token file, basic auth, `tls-server-name`,
 * `insecure-skip-tls-verify` and exec plugins are opgen's own; only an `auth-provider`
 * (oidc, gcp, azure) or a `proxy-url` loads `@kubernetes/client-node`, which serves them.
 * `now` is the clock of file re-reads (ms).
 *
 * @example
 * const credentials = credentialsFor(loadKubeConfig());
 * const { headers, ca, cert, key } = await credentials.apply();
 */
export function credentialsFor(kubeConfig: KubeConfig, now: () => number = () => performance.now()): Credentials {
  const { cluster, user } = currentContextOf(kubeConfig);
  const provider = user.authProvider;
  if ((provider && provider.name !== 'tokenFile') || cluster.proxyUrl) return throughClientNode(kubeConfig, Boolean(cluster.proxyUrl));
  if (cluster.skipTLSVerify && (cluster.caData || cluster.caFile)) {
    throw new Error(`kubeconfig: cluster "${cluster.name}" sets both a certificate authority and insecure-skip-tls-verify; keep one`);
  }
  const ca = pem(cluster.caData, cluster.caFile, Infinity, now);
  const cert = pem(user.certData, user.certFile, CERT_FILE_PERIOD_MS, now);
  const key = pem(user.keyData, user.keyFile, CERT_FILE_PERIOD_MS, now);
  const tokenPath = user.tokenFile ?? (provider?.name === 'tokenFile' ? provider.config?.tokenFile : undefined);
  const tokenFile = tokenPath ? cachedFile(tokenPath, TOKEN_FILE_PERIOD_MS, now) : undefined;
  const exec = user.exec ? execCredentialSource(user.exec, cluster) : undefined;
  const basic = basicAuth(user);
  return {
    async apply() {
      const auth: RequestAuth = { headers: {}, rejectUnauthorized: !cluster.skipTLSVerify };
      if (ca) auth.ca = ca();
      if (cert) auth.cert = cert();
      if (key) auth.key = key();
      if (cluster.tlsServerName) auth.servername = cluster.tlsServerName;
      // A token file wins over a token (client-go's BearerTokenFile); a plugin's credential over both.
      const token = tokenFile ? tokenFile.read().toString('utf8').trim() : user.token;
      if (token) auth.headers.authorization = `Bearer ${token}`;
      else if (basic) auth.headers.authorization = basic;
      if (exec) {
        const credential = await exec.get();
        if (credential.token) auth.headers.authorization = `Bearer ${credential.token}`;
        if (credential.cert) auth.cert = credential.cert;
        if (credential.key) auth.key = credential.key;
      }
      return auth;
    },
    rejected() {
      tokenFile?.invalidate();
      exec?.invalidate();
    },
  };
}

/** A PEM from base64 data, or from a file re-read every `periodMs`. */
function pem(data: string | undefined, file: string | undefined, periodMs: number, now: () => number): (() => Buffer) | undefined {
  if (data) {
    const decoded = Buffer.from(data, 'base64');
    return () => decoded;
  }
  if (!file) return undefined;
  const cached: CachedFile = cachedFile(file, periodMs, now);
  cached.read(); // A missing file fails here, when the connection is built, not at the first request.
  return () => cached.read();
}

function basicAuth(user: KubeConfigUser): string | undefined {
  if (!user.username && !user.password) return undefined;
  return `Basic ${Buffer.from(`${user.username ?? ''}:${user.password ?? ''}`).toString('base64')}`;
}

/**
 * Credentials opgen does not implement, served by `@kubernetes/client-node` (loaded here,
 * once). Its agent is kept only for a proxy: it builds one per call, a TLS handshake each.
 */
function throughClientNode(kubeConfig: KubeConfig, proxied: boolean): Credentials {
  const foreign: ClientNodeKubeConfig =
    typeof (kubeConfig as Partial<ClientNodeKubeConfig>).applyToHTTPSOptions === 'function' ? (kubeConfig as ClientNodeKubeConfig) : loadIntoClientNode(kubeConfig);
  return {
    async apply() {
      const options: Record<string, unknown> & { headers?: Record<string, string> } = {};
      await foreign.applyToHTTPSOptions(options);
      const headers = Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
      const auth: RequestAuth = { headers, rejectUnauthorized: options.rejectUnauthorized !== false };
      for (const key of ['ca', 'cert', 'key', 'servername', ...(proxied ? (['agent'] as const) : [])] as const) if (options[key] !== undefined) (auth as unknown as Record<string, unknown>)[key] = options[key];
      return auth;
    },
    rejected() {},
  };
}

function loadIntoClientNode(kubeConfig: KubeConfig): ClientNodeKubeConfig {
  const config = new (clientNode().KubeConfig)();
  config.loadFromOptions({
    clusters: kubeConfig.clusters.map((c: KubeConfigCluster) => ({ ...c, skipTLSVerify: c.skipTLSVerify ?? false })),
    users: kubeConfig.users,
    contexts: kubeConfig.contexts,
    currentContext: kubeConfig.currentContext,
  });
  return config;
}
