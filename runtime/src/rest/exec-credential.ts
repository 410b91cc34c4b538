import { execFile } from 'node:child_process';
import type { ExecConfig, KubeConfigCluster } from './kubeconfig.js';

/** What a credential plugin printed: a token, or a client certificate and key (PEM). */
export interface ExecCredential {
  token?: string;
  cert?: string;
  key?: string;
}

/** A credential plugin's output, cached until it expires; see {@link execCredentialSource}. */
export interface ExecCredentialSource {
  get(): Promise<ExecCredential>;
  /** The server refused the credential: the next `get` runs the plugin again. */
  invalidate(): void;
}

const API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

/**
 * Runs a kubeconfig user's `exec` plugin as client-go's exec authenticator does: the
 * command with its args and env (over this process's), `KUBERNETES_EXEC_INFO` holding an
 * `ExecCredential` request (non-interactive, with the cluster when `provideClusterInfo`),
 * and its printed `ExecCredential` status used until `expirationTimestamp` (forever without
 * one, until the server answers 401). One run at a time; callers share it.
 *
 * @example
 * const source = execCredentialSource(user.exec, cluster);
 * const { token } = await source.get();
 */
export function execCredentialSource(exec: ExecConfig, cluster: KubeConfigCluster, now: () => number = Date.now): ExecCredentialSource {
  const who = `exec plugin ${exec.command}`;
  if (!API_VERSIONS.includes(exec.apiVersion)) throw new Error(`kubeconfig: ${who}: apiVersion "${exec.apiVersion}" is not one of ${API_VERSIONS.join(', ')}`);
  if (exec.interactiveMode === 'Always') throw new Error(`kubeconfig: ${who} needs a terminal (interactiveMode: Always), which a controller does not have`);
  let cached: { credential: ExecCredential; expiresAt: number } | undefined;
  let running: Promise<ExecCredential> | undefined;

  const request = {
    apiVersion: exec.apiVersion,
    kind: 'ExecCredential',
    spec: {
      interactive: false,
      ...(exec.provideClusterInfo
        ? {
            cluster: {
              server: cluster.server,
              ...(cluster.caData ? { 'certificate-authority-data': cluster.caData } : {}),
              ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
              ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
              ...(cluster.proxyUrl ? { 'proxy-url': cluster.proxyUrl } : {}),
            },
          }
        : {}),
    },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(request) };
  for (const { name, value } of exec.env ?? []) env[name] = value;

  const run = (): Promise<ExecCredential> =>
    new Promise((resolve, reject) => {
      execFile(exec.command, [...(exec.args ?? [])], { env, maxBuffer: 4 << 20 }, (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const why = code === 'ENOENT' ? `not found${exec.installHint ? ` (${exec.installHint.trim().split('\n')[0]})` : ''}` : `failed: ${String(stderr).trim().split('\n').pop() || error.message}`;
          return reject(new Error(`kubeconfig: ${who} ${why}`));
        }
        try {
          resolve(readCredential(String(stdout), exec.apiVersion, who));
        } catch (failure) {
          reject(failure as Error);
        }
      });
    });

  return {
    async get() {
      if (cached && now() < cached.expiresAt) return cached.credential;
      running ??= run().finally(() => (running = undefined));
      return running;
    },
    invalidate() {
      cached = undefined;
    },
  };

  function readCredential(stdout: string, apiVersion: string, where: string): ExecCredential {
    let parsed: { apiVersion?: string; kind?: string; status?: Record<string, string> };
    try {
      parsed = JSON.parse(stdout) as typeof parsed;
    } catch {
      throw new Error(`kubeconfig: ${where} printed no ExecCredential JSON`);
    }
    if (parsed.kind !== 'ExecCredential' || parsed.apiVersion !== apiVersion) {
      throw new Error(`kubeconfig: ${where} printed ${parsed.kind ?? 'no kind'} ${parsed.apiVersion ?? ''}, not an ExecCredential of ${apiVersion}`);
    }
    const status = parsed.status ?? {};
    const credential: ExecCredential = {};
    if (status.token) credential.token = status.token;
    if (status.clientCertificateData || status.clientKeyData) {
      if (!status.clientCertificateData || !status.clientKeyData) throw new Error(`kubeconfig: ${where} printed a client certificate without its key, or a key without its certificate`);
      credential.cert = status.clientCertificateData;
      credential.key = status.clientKeyData;
    }
    if (!credential.token && !credential.cert) throw new Error(`kubeconfig: ${where} printed an ExecCredential with neither a token nor a client certificate`);
    const expiresAt = status.expirationTimestamp ? Date.parse(status.expirationTimestamp) : Infinity;
    cached = { credential, expiresAt: Number.isNaN(expiresAt) ? Infinity : expiresAt };
    return credential;
  }
}
