import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import type { ExecConfig, KubeConfig, KubeConfigCluster, KubeConfigContext, KubeConfigUser } from './kubeconfig.js';

type Entry = Record<string, unknown>;

/**
 * Reads one kubeconfig file: relative file references in it (certificate, key, CA, token
 * file, an exec command with a path) resolve against the file's directory, as clientcmd's
 * `ResolveLocalPaths` does. Errors name the file.
 *
 * @example
 * const kubeConfig = readKubeConfigFile('/etc/fleet/east.yaml');
 */
export function readKubeConfigFile(path: string): KubeConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`kubeconfig ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  return parseKubeConfig(text, { directory: dirname(resolve(path)), source: path });
}

/**
 * Parses a kubeconfig's YAML (or JSON) text. Relative paths resolve against `directory`
 * (default the working directory); `source` names the text in errors (default `kubeconfig`).
 *
 * @example
 * const kubeConfig = parseKubeConfig(Buffer.from(secret.data.kubeconfig, 'base64').toString());
 */
export function parseKubeConfig(text: string, options: { directory?: string; source?: string } = {}): KubeConfig {
  const source = options.source ?? 'kubeconfig';
  const directory = options.directory ?? process.cwd();
  let document: unknown;
  try {
    document = parse(text) ?? {};
  } catch (error) {
    const position = (error as { linePos?: { line: number }[] }).linePos?.[0];
    throw new Error(`${source}${position ? `:${position.line}` : ''}: not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof document !== 'object' || Array.isArray(document)) throw new Error(`${source}: not a kubeconfig (expected a mapping)`);
  const root = document as Entry;
  const path = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? resolve(directory, value) : undefined);
  const list = (key: string, inner: string): { name: string; body: Entry }[] =>
    asArray(root[key], `${source}: ${key}`).map((item, index) => {
      const entry = asEntry(item, `${source}: ${key}[${index}]`);
      if (typeof entry.name !== 'string' || entry.name === '') throw new Error(`${source}: ${key}[${index}] has no name`);
      return { name: entry.name, body: asEntry(entry[inner] ?? {}, `${source}: ${key}[${index}].${inner}`) };
    });

  const clusters = list('clusters', 'cluster').map(({ name, body }): KubeConfigCluster =>
    prune({
      name,
      server: str(body.server) ?? '',
      caData: str(body['certificate-authority-data']),
      caFile: path(body['certificate-authority']),
      skipTLSVerify: body['insecure-skip-tls-verify'] === true ? true : undefined,
      tlsServerName: str(body['tls-server-name']),
      proxyUrl: str(body['proxy-url']),
    }),
  );
  const users = list('users', 'user').map(({ name, body }): KubeConfigUser =>
    prune({
      name,
      certData: str(body['client-certificate-data']),
      certFile: path(body['client-certificate']),
      keyData: str(body['client-key-data']),
      keyFile: path(body['client-key']),
      token: str(body.token),
      tokenFile: path(body.tokenFile),
      username: str(body.username),
      password: str(body.password),
      exec: body.exec ? execConfig(asEntry(body.exec, `${source}: user ${name}: exec`), directory) : undefined,
      authProvider: body['auth-provider'] ? (body['auth-provider'] as KubeConfigUser['authProvider']) : undefined,
    }),
  );
  const contexts = list('contexts', 'context').map(({ name, body }): KubeConfigContext =>
    prune({ name, cluster: str(body.cluster) ?? '', user: str(body.user) ?? '', namespace: str(body.namespace) }),
  );
  return { clusters, users, contexts, currentContext: str(root['current-context']) ?? '' };
}

/** An exec plugin's config; a command with a path separator resolves against the kubeconfig's directory (clientcmd). */
function execConfig(body: Entry, directory: string): ExecConfig {
  const command = str(body.command) ?? '';
  return prune({
    command: command.includes('/') && !isAbsolute(command) ? resolve(directory, command) : command,
    args: Array.isArray(body.args) ? body.args.map(String) : undefined,
    env: Array.isArray(body.env) ? (body.env as Entry[]).map((e) => ({ name: String(e.name), value: String(e.value ?? '') })) : undefined,
    apiVersion: str(body.apiVersion) ?? '',
    provideClusterInfo: body.provideClusterInfo === true ? true : undefined,
    interactiveMode: str(body.interactiveMode),
    installHint: str(body.installHint),
  });
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function asArray(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${where} is not a list`);
  return value;
}

function asEntry(value: unknown, where: string): Entry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} is not a mapping`);
  return value as Entry;
}

/** `value` without its undefined fields, so a parsed kubeconfig compares and prints cleanly. */
function prune<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
