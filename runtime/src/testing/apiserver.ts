import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpCall } from './http.js';
import { LOOPBACK } from './ports.js';
import { startProcess, type ManagedProcess, type Supervise } from './process.js';
import { waitUntilReady } from './wait.js';

/** Everything kube-apiserver needs; the files named here live in the control plane's dir. */
export interface ApiServerConfig {
  binary: string;
  dir: string;
  port: number;
  etcdUrl: string;
  /** A `system:masters` token the harness uses for its own health checks. */
  adminToken: string;
  watchCache: boolean;
  extraArgs: string[];
}

/** Issuer and audience of ServiceAccount tokens, as in a real cluster. */
export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** The files the API server reads or writes, by role. */
export function apiServerFiles(dir: string) {
  return {
    certDir: join(dir, 'apiserver-certs'),
    /** Written by the API server itself: its self-signed serving cert followed by its CA. */
    servingCert: join(dir, 'apiserver-certs', 'apiserver.crt'),
    tokens: join(dir, 'tokens.csv'),
    serviceAccountKey: join(dir, 'service-account.key'),
    serviceAccountPub: join(dir, 'service-account.pub'),
    log: join(dir, 'kube-apiserver.log'),
  };
}

export function apiServerUrl(port: number): string {
  return `https://${LOOPBACK}:${port}`;
}

function apiServerArgs(config: ApiServerConfig): string[] {
  const files = apiServerFiles(config.dir);
  return [
    `--etcd-servers=${config.etcdUrl}`,
    `--bind-address=${LOOPBACK}`,
    `--advertise-address=${LOOPBACK}`,
    `--secure-port=${config.port}`,
    // The API server signs its own serving cert; the kubeconfig trusts the CA it writes.
    `--cert-dir=${files.certDir}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    '--authorization-mode=RBAC',
    `--token-auth-file=${files.tokens}`,
    `--service-account-issuer=${SERVICE_ACCOUNT_ISSUER}`,
    `--api-audiences=${SERVICE_ACCOUNT_ISSUER}`,
    `--service-account-key-file=${files.serviceAccountPub}`,
    `--service-account-signing-key-file=${files.serviceAccountKey}`,
    '--allow-privileged=true',
    // No kubelet mounts tokens here, and Pods created right after their namespace must not
    // wait for the ServiceAccount controller (envtest makes the same choice).
    '--disable-admission-plugins=ServiceAccount',
    '--profiling=false',
    ...(config.watchCache ? [] : ['--watch-cache=false']),
    ...config.extraArgs,
  ];
}

/**
 * Starts kube-apiserver and waits until `/readyz` passes and the `default` namespace
 * exists. Returns the process and the PEM bundle that verifies its serving cert.
 */
export async function startApiServer(
  config: ApiServerConfig,
  deadline: number,
  supervise: Supervise,
): Promise<{ process: ManagedProcess; caPem: string }> {
  const files = apiServerFiles(config.dir);
  const url = apiServerUrl(config.port);
  const apiServer = supervise(await startProcess('kube-apiserver', config.binary, apiServerArgs(config), files.log));
  const caPem = await waitUntilReady(apiServer, `${url}/readyz`, deadline, async () => {
    let ca: string;
    try {
      ca = readFileSync(files.servingCert, 'utf8');
    } catch {
      throw new Error('no serving certificate yet');
    }
    await expectOk(url, '/readyz?verbose', ca, config.adminToken);
    return ca;
  });
  await waitUntilReady(apiServer, 'the default namespace', deadline, () =>
    expectOk(url, '/api/v1/namespaces/default', caPem, config.adminToken),
  );
  return { process: apiServer, caPem };
}

async function expectOk(url: string, path: string, ca: string, token: string): Promise<void> {
  const response = await httpCall(`${url}${path}`, { ca, bearerToken: token });
  if (response.status !== 200) {
    const failing = response.body
      .split('\n')
      .filter((line) => line.startsWith('[-]'))
      .map((line) => line.slice(3).replace(/ failed: reason withheld$/, ''))
      .join(', ');
    throw new Error(`GET ${path}: ${response.status} ${failing ? `failing: ${failing}` : response.body.trim().slice(0, 300)}`);
  }
}
