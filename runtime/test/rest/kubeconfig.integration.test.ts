import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';

const REGISTER = fileURLToPath(new URL('../fixtures/ts-register.mjs', import.meta.url));
const PROBE = fileURLToPath(new URL('../fixtures/kubeconfig-probe.ts', import.meta.url));

/** A kubeconfig file for the control plane's server and CA, with `user` as its user's fields. */
function kubeconfigText(cp: ControlPlane, user: string): string {
  const cluster = cp.kubeConfig.getCurrentCluster()!;
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: cp, cluster: {server: "${cluster.server}", certificate-authority-data: ${cluster.caData}}}]`,
    `users: [{name: me, user: {${user}}}]`,
    'contexts: [{name: cp, context: {cluster: cp, user: me}}]',
    'current-context: cp',
    '',
  ].join('\n');
}

/** What the probe process saw through `kubeconfig`: the default namespace's uid, and whether it loaded client-node. */
function probe(kubeconfig: string): { uid: string; clientNodeLoaded: boolean } {
  const out = execFileSync(process.execPath, ['--import', REGISTER, PROBE, '--kubeconfig', kubeconfig], { encoding: 'utf8', env: { ...process.env, KUBECONFIG: '' } });
  return JSON.parse(out) as { uid: string; clientNodeLoaded: boolean };
}

describe('a kubeconfig, read and used without @kubernetes/client-node, against a real API server', () => {
  let cp: ControlPlane;
  let dir: string;
  let defaultUid: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'opgen-kubeconfig-'));
    // A client CA the API server trusts, and a certificate of the system:masters group signed by it.
    const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    openssl('req', '-x509', ...ecKey, '-subj', '/CN=opgen-test-client-ca', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1');
    openssl('req', ...ecKey, '-subj', '/O=system:masters/CN=cert-user', '-keyout', 'client.key', '-out', 'client.csr');
    openssl('x509', '-req', '-in', 'client.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.crt', '-days', '1');
    openssl('req', '-x509', ...ecKey, '-subj', '/O=system:masters/CN=stranger', '-keyout', 'stranger.key', '-out', 'stranger.crt', '-days', '1');
    cp = await startControlPlane({ extraArgs: { kubeApiServer: [`--client-ca-file=${join(dir, 'ca.crt')}`] } });
    const ns = await cp.kubeConfig.makeApiClient((await import('@kubernetes/client-node')).CoreV1Api).readNamespace({ name: 'default' });
    defaultUid = ns.metadata!.uid!;
  }, 120_000);

  afterAll(async () => {
    await cp?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('connects with a client certificate and key given as files relative to the kubeconfig', () => {
    const kubeconfig = join(dir, 'cert.kubeconfig');
    writeFileSync(kubeconfig, kubeconfigText(cp, 'client-certificate: client.crt, client-key: client.key'));
    expect(probe(kubeconfig)).toEqual({ uid: defaultUid, clientNodeLoaded: false });
  });

  it('connects with a token file relative to the kubeconfig, and with a token', () => {
    const token = cp.kubeConfig.getCurrentUser()!.token!;
    writeFileSync(join(dir, 'token'), `${token}\n`);
    const tokenFile = join(dir, 'token-file.kubeconfig');
    writeFileSync(tokenFile, kubeconfigText(cp, 'tokenFile: token'));
    expect(probe(tokenFile)).toEqual({ uid: defaultUid, clientNodeLoaded: false });
    const inline = join(dir, 'token.kubeconfig');
    writeFileSync(inline, kubeconfigText(cp, `token: "${token}"`));
    expect(probe(inline)).toEqual({ uid: defaultUid, clientNodeLoaded: false });
  });

  it('is refused with a client certificate of a CA the API server does not trust', () => {
    const kubeconfig = join(dir, 'untrusted.kubeconfig');
    writeFileSync(kubeconfig, kubeconfigText(cp, 'client-certificate: stranger.crt, client-key: stranger.key'));
    expect(() => probe(kubeconfig)).toThrow(/401|Unauthorized/);
  });
});
