import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig as ClientNodeKubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { credentialsFor } from '../../src/rest/credentials.js';
import { createCluster, currentContextOf, inClusterKubeConfig, loadKubeConfig, readKubeConfigFile } from '../../src/rest/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'opgen-kubeconfig-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `text` to `dir/name` (directories made) and returns the path. */
function write(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A kubeconfig with one cluster, user and context each, named by `prefix`. */
function kubeconfig(prefix: string, server: string, user: string, current = prefix): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: ${prefix}, cluster: {server: "${server}"}}]`,
    `users: [{name: ${prefix}, user: {${user}}}]`,
    `contexts: [{name: ${prefix}, context: {cluster: ${prefix}, user: ${prefix}, namespace: ${prefix}-ns}}]`,
    ...(current ? [`current-context: ${current}`] : []),
    '',
  ].join('\n');
}

const noCluster = { env: {}, home: '/nonexistent', inCluster: { directory: '/nonexistent' } };

describe('loadKubeConfig', () => {
  it('merges the files of KUBECONFIG as kubectl does: the first definition of a name and the first current-context win, missing files are skipped', () => {
    const a = write('a/config', kubeconfig('shared', 'https://a.example:6443', 'token: a'));
    const b = write(
      'b/config',
      kubeconfig('shared', 'https://b.example:6443', 'token: b', 'other').replace('contexts: [', 'contexts: [{name: other, context: {cluster: shared, user: shared}}, '),
    );
    const config = loadKubeConfig(undefined, { ...noCluster, env: { KUBECONFIG: [a, join(dir, 'missing'), b].join(':') } });
    expect(config.currentContext).toBe('shared');
    expect(currentContextOf(config).cluster.server).toBe('https://a.example:6443');
    expect(currentContextOf(config).user.token).toBe('a');
    expect(config.contexts.map((c) => c.name).sort()).toEqual(['other', 'shared']);

    const other = loadKubeConfig(undefined, { ...noCluster, env: { KUBECONFIG: [a, b].join(':') }, context: 'other' });
    expect(currentContextOf(other).context.name).toBe('other');
    expect(() => loadKubeConfig(undefined, { ...noCluster, env: { KUBECONFIG: a }, context: 'nope' })).toThrow('kubeconfig has no context "nope"');
  });

  it('resolves relative file references against the directory of the file that holds them', async () => {
    write('sub/certs/client.crt', 'CERT');
    write('sub/certs/client.key', 'KEY');
    write('ca.crt', 'CA');
    write('sub/token', 'secret-token\n');
    const path = write(
      'sub/config',
      kubeconfig('x', 'https://x.example', 'client-certificate: certs/client.crt, client-key: certs/client.key, tokenFile: token').replace(
        'server: "https://x.example"',
        'server: "https://x.example", certificate-authority: ../ca.crt',
      ),
    );
    const config = loadKubeConfig(path, noCluster);
    const { cluster, user } = currentContextOf(config);
    expect(cluster.caFile).toBe(join(dir, 'ca.crt'));
    expect(user).toMatchObject({ certFile: join(dir, 'sub/certs/client.crt'), keyFile: join(dir, 'sub/certs/client.key'), tokenFile: join(dir, 'sub/token') });
    const auth = await credentialsFor(config).apply();
    expect({ ca: String(auth.ca), cert: String(auth.cert), key: String(auth.key), authorization: auth.headers.authorization }).toEqual({
      ca: 'CA',
      cert: 'CERT',
      key: 'KEY',
      authorization: 'Bearer secret-token',
    });
  });

  it('takes the in-cluster service account without KUBECONFIG, before ~/.kube/config', () => {
    const account = join(dir, 'serviceaccount');
    write('serviceaccount/token', 'sa-token');
    write('serviceaccount/ca.crt', 'CA');
    write('serviceaccount/namespace', 'operators\n');
    write('home/.kube/config', kubeconfig('home', 'https://home.example', 'token: h'));
    const env = { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' };
    const config = loadKubeConfig(undefined, { env, home: join(dir, 'home'), inCluster: { directory: account } });
    expect(currentContextOf(config)).toEqual({
      context: { name: 'in-cluster', cluster: 'in-cluster', user: 'in-cluster', namespace: 'operators' },
      cluster: { name: 'in-cluster', server: 'https://[fd00::1]:443', caFile: join(account, 'ca.crt') },
      user: { name: 'in-cluster', tokenFile: join(account, 'token') },
    });
    // KUBECONFIG set wins over the service account; without either, the home file is read.
    const fromEnv = loadKubeConfig(undefined, { env: { ...env, KUBECONFIG: join(dir, 'home/.kube/config') }, inCluster: { directory: account } });
    expect(currentContextOf(fromEnv).cluster.server).toBe('https://home.example');
    expect(currentContextOf(loadKubeConfig(undefined, { env: {}, home: join(dir, 'home'), inCluster: { directory: account } })).cluster.server).toBe('https://home.example');
    expect(inClusterKubeConfig({ env: { KUBERNETES_SERVICE_HOST: '10.0.0.1' }, directory: account })).toBeUndefined();
  });

  it('says in one line what is wrong, naming the file', () => {
    expect(() => loadKubeConfig(undefined, noCluster)).toThrow('no kubeconfig: pass --kubeconfig, set KUBECONFIG, create ~/.kube/config, or run in a cluster');
    const noCurrent = write('no-current', kubeconfig('x', 'https://x.example', 'token: t', ''));
    expect(() => loadKubeConfig(noCurrent, noCluster)).toThrow(`${noCurrent}: has no current-context`);
    const dangling = write('dangling', kubeconfig('x', 'https://x.example', 'token: t').replace('{cluster: x,', '{cluster: gone,'));
    expect(() => loadKubeConfig(dangling, noCluster)).toThrow(`${dangling}: context "x" names cluster "gone", which it does not define`);
    const broken = write('broken', 'clusters:\n  - name: x\n   bad: [\n');
    expect(() => loadKubeConfig(broken, noCluster)).toThrow(new RegExp(`^${broken}:\\d+: not YAML`));
    expect(() => loadKubeConfig(join(dir, 'absent'), noCluster)).toThrow(`kubeconfig ${join(dir, 'absent')}: no such file`);
  });
});

describe('credentials of a kubeconfig', () => {
  it('re-reads a rotated token file after a minute, and at once after the server refused the old token', async () => {
    const token = write('token', 'first');
    let now = 0;
    const credentials = credentialsFor(readKubeConfigFile(write('config', kubeconfig('x', 'https://x.example', `tokenFile: ${token}`))), () => now);
    expect((await credentials.apply()).headers.authorization).toBe('Bearer first');
    writeFileSync(token, 'second');
    now = 59_000;
    expect((await credentials.apply()).headers.authorization).toBe('Bearer first');
    now = 60_000;
    expect((await credentials.apply()).headers.authorization).toBe('Bearer second');
    writeFileSync(token, 'third');
    credentials.rejected();
    expect((await credentials.apply()).headers.authorization).toBe('Bearer third');
    // A token file being replaced (briefly absent) keeps the last token.
    rmSync(token);
    now = 200_000;
    expect((await credentials.apply()).headers.authorization).toBe('Bearer third');
  });

  it('runs an exec plugin, keeps its credential until it expires, and runs it again after a 401', async () => {
    const runs = join(dir, 'runs');
    const plugin = write(
      'bin/plugin',
      [
        '#!/bin/sh',
        `echo run >> "${runs}"`,
        'n=$(wc -l < "' + runs + '")',
        'case "$KUBERNETES_EXEC_INFO" in *\'"interactive":false\'*) ;; *) echo "no exec info" >&2; exit 1;; esac',
        'printf \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s-%s","expirationTimestamp":"%s"}}\' "$PREFIX" "$n" "$EXPIRES"',
        '',
      ].join('\n'),
    );
    chmodSync(plugin, 0o755);
    const exec = (expires: string) =>
      `exec: {apiVersion: client.authentication.k8s.io/v1, command: bin/plugin, interactiveMode: Never, env: [{name: PREFIX, value: tok}, {name: EXPIRES, value: "${expires}"}]}`;
    const count = () => readFileSync(runs, 'utf8').split('\n').filter(Boolean).length;

    const lasting = credentialsFor(readKubeConfigFile(write('lasting', kubeconfig('x', 'https://x.example', exec('2999-01-01T00:00:00Z')))));
    expect((await lasting.apply()).headers.authorization).toBe('Bearer tok-1');
    expect((await lasting.apply()).headers.authorization).toBe('Bearer tok-1');
    expect(count()).toBe(1);
    lasting.rejected();
    expect((await lasting.apply()).headers.authorization).toBe('Bearer tok-2');

    const expired = credentialsFor(readKubeConfigFile(write('expired', kubeconfig('x', 'https://x.example', exec('2000-01-01T00:00:00Z')))));
    await expired.apply();
    await expired.apply();
    expect(count()).toBe(4);

    const missing = credentialsFor(
      readKubeConfigFile(write('missing', kubeconfig('x', 'https://x.example', 'exec: {apiVersion: client.authentication.k8s.io/v1, command: no-such-plugin, installHint: "install no-such-plugin"}'))),
    );
    await expect(missing.apply()).rejects.toThrow('kubeconfig: exec plugin no-such-plugin not found (install no-such-plugin)');
  });

  it('accepts a @kubernetes/client-node KubeConfig, its in-cluster token file included, without asking it for credentials', async () => {
    write('var/run/secrets/kubernetes.io/serviceaccount/token', 'sa-token');
    write('var/run/secrets/kubernetes.io/serviceaccount/ca.crt', 'CA');
    const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
    process.env.KUBERNETES_SERVICE_HOST = '10.0.0.1';
    process.env.KUBERNETES_SERVICE_PORT = '443';
    const foreign = new ClientNodeKubeConfig();
    try {
      foreign.loadFromCluster(dir);
    } finally {
      for (const [key, value] of [['KUBERNETES_SERVICE_HOST', saved.host], ['KUBERNETES_SERVICE_PORT', saved.port]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    foreign.applyToHTTPSOptions = () => Promise.reject(new Error('asked client-node'));
    const auth = await credentialsFor(foreign).apply();
    expect({ authorization: auth.headers.authorization, ca: String(auth.ca) }).toEqual({ authorization: 'Bearer sa-token', ca: 'CA' });
    expect(createCluster(foreign).host).toBe('10.0.0.1');
  });

  it('serves an auth-provider through client-node, on the transport\'s own pooled connections', async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const idToken = `${part({ alg: 'none' })}.${part({ exp: Math.floor(Date.now() / 1000) + 3600 })}.c2ln`;
    const config = readKubeConfigFile(write('oidc', kubeconfig('x', 'https://x.example', `auth-provider: {name: oidc, config: {id-token: "${idToken}", client-id: opgen}}`)));
    const auth = await credentialsFor(config).apply();
    expect(auth.headers.authorization).toBe(`Bearer ${idToken}`);
    expect(auth.agent).toBeUndefined();
  });
});
