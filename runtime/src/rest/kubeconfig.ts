/**
 * opgen's kubeconfig: the data of a kubeconfig file (clusters, users, contexts and the
 * current context) with every file path absolute. Plain data, built by `loadKubeConfig`,
 * `parseKubeConfig` or by hand; the field names are those of `@kubernetes/client-node`'s
 * `KubeConfig`, so one of those is accepted wherever this is.
 *
 * @example
 * const kubeConfig: KubeConfig = {
 *   clusters: [{ name: 'dev', server: 'https://127.0.0.1:6443', caFile: '/etc/dev/ca.crt' }],
 *   users: [{ name: 'me', tokenFile: '/var/run/dev/token' }],
 *   contexts: [{ name: 'dev', cluster: 'dev', user: 'me', namespace: 'shop' }],
 *   currentContext: 'dev',
 * };
 * createManager({ kubeConfig });
 */
export interface KubeConfig {
  readonly clusters: readonly KubeConfigCluster[];
  readonly users: readonly KubeConfigUser[];
  readonly contexts: readonly KubeConfigContext[];
  /** The context a connection uses. */
  readonly currentContext: string;
}

/** A kubeconfig's `clusters[].cluster`, camel-cased. */
export interface KubeConfigCluster {
  readonly name: string;
  /** `https://host:port`, maybe with a path prefix. */
  readonly server: string;
  /** The CA bundle, base64 of PEM (`certificate-authority-data`). */
  readonly caData?: string;
  /** `certificate-authority`: a PEM file. */
  readonly caFile?: string;
  /** `insecure-skip-tls-verify`. */
  readonly skipTLSVerify?: boolean;
  /** `tls-server-name`: the name the server's certificate is checked against instead of the host. */
  readonly tlsServerName?: string;
  /** `proxy-url`: served through `@kubernetes/client-node`, loaded only then. */
  readonly proxyUrl?: string;
}

/** A kubeconfig's `users[].user`, camel-cased. */
export interface KubeConfigUser {
  readonly name: string;
  /** `client-certificate-data`: base64 of PEM. */
  readonly certData?: string;
  /** `client-certificate`: a PEM file, re-read as it rotates. */
  readonly certFile?: string;
  /** `client-key-data`: base64 of PEM. */
  readonly keyData?: string;
  /** `client-key`: a PEM file, re-read as it rotates. */
  readonly keyFile?: string;
  /** A bearer token. */
  readonly token?: string;
  /** `tokenFile`: a file holding the bearer token, re-read every minute (a rotated service account token). */
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  /** A credential plugin (client.authentication.k8s.io ExecCredential). */
  readonly exec?: ExecConfig;
  /** A legacy auth provider (oidc, gcp, azure): served through `@kubernetes/client-node`, loaded only then. */
  readonly authProvider?: { readonly name: string; readonly config?: Readonly<Record<string, string>> };
}

/** A kubeconfig user's `exec`: a command that prints an ExecCredential. */
export interface ExecConfig {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: readonly { readonly name: string; readonly value: string }[] | null;
  /** `client.authentication.k8s.io/v1` or `v1beta1`. */
  readonly apiVersion: string;
  /** Pass the cluster's server and CA to the plugin in `KUBERNETES_EXEC_INFO`. */
  readonly provideClusterInfo?: boolean;
  /** `Never`, `IfAvailable` or `Always`; a controller has no terminal, so `Always` cannot run. */
  readonly interactiveMode?: string;
  /** Printed when the command is not found. */
  readonly installHint?: string;
}

/** A kubeconfig's `contexts[].context`. */
export interface KubeConfigContext {
  readonly name: string;
  readonly cluster: string;
  readonly user: string;
  /** The default namespace of the context. */
  readonly namespace?: string;
}

/** The cluster and user a kubeconfig's current context names. */
export interface CurrentContext {
  readonly context: KubeConfigContext;
  readonly cluster: KubeConfigCluster;
  readonly user: KubeConfigUser;
}

/**
 * The current context of `kubeConfig`, resolved; throws a one-line error naming what is
 * missing. A context without a user means no credentials, as in kubectl.
 *
 * @example
 * const { cluster, context } = currentContextOf(loadKubeConfig());
 * console.log(cluster.server, context.namespace ?? 'default');
 */
export function currentContextOf(kubeConfig: KubeConfig): CurrentContext {
  const name = kubeConfig.currentContext;
  if (!name) throw new Error('kubeconfig has no current-context');
  const context = kubeConfig.contexts.find((c) => c.name === name);
  if (!context) throw new Error(`kubeconfig: current-context "${name}" is not among its contexts`);
  const cluster = kubeConfig.clusters.find((c) => c.name === context.cluster);
  if (!cluster) throw new Error(`kubeconfig: context "${name}" names cluster "${context.cluster}", which it does not define`);
  if (!cluster.server) throw new Error(`kubeconfig: cluster "${cluster.name}" has no server`);
  const user = kubeConfig.users.find((u) => u.name === context.user) ?? { name: context.user ?? '' };
  return { context, cluster, user };
}

/** `kubeConfig` with `context` as its current context; throws when it has no such context. */
export function withContext(kubeConfig: KubeConfig, context: string): KubeConfig {
  if (!kubeConfig.contexts.some((c) => c.name === context)) throw new Error(`kubeconfig has no context "${context}"`);
  return { clusters: kubeConfig.clusters, users: kubeConfig.users, contexts: kubeConfig.contexts, currentContext: context };
}
