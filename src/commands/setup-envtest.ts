import { join } from 'node:path';
import { Command } from 'commander';
import { UserError } from '../errors.js';

interface SetupEnvtestOptions {
  version?: string;
  printPath?: boolean;
  controllerManager?: boolean;
}

/**
 * `opgen setup-envtest`: what kubebuilder projects' `make setup-envtest` does, for an npm
 * project: the test control plane downloaded ahead of time (e.g. in CI, or before going
 * offline) into the cache `npm test` reads.
 */
export function setupEnvtestCommand(): Command {
  return new Command('setup-envtest')
    .description("download the test control plane (etcd, kube-apiserver, kubectl) into opgen's cache, verified, ahead of `npm test`")
    .option('--version <version>', 'the Kubernetes version (default: the one @opgen/runtime tests against)')
    .option('--controller-manager', 'also kube-controller-manager (tests with garbage collection or the workload controllers)')
    .option('--print-path', 'print only the directory (for KUBEBUILDER_ASSETS); progress still goes to stderr')
    .addHelpText(
      'after',
      `
Sources: controller-tools' envtest release index (sha512 per tarball) and the Kubernetes release
layout for kube-controller-manager (sha256 beside each binary). For a mirror or an air-gapped
network set OPGEN_ENVTEST_INDEX (an index in envtest-releases.yaml's format) and
OPGEN_K8S_RELEASE_URL (the base of dl.k8s.io/release's layout). The cache is
$OPGEN_CACHE_DIR, else ~/.cache/opgen; binaries already there are not downloaded again.

Examples:
  $ opgen setup-envtest
  $ export KUBEBUILDER_ASSETS=$(opgen setup-envtest --print-path)`,
    )
    .action(async (options: SetupEnvtestOptions) => {
      const { downloadControlPlane, DownloadError, isExecutable, KUBERNETES_VERSION, opgenCacheRoot } = await import('@opgen/runtime/downloads');
      const version = options.version ?? KUBERNETES_VERSION;
      if (!/^\d+\.\d+\.\d+$/.test(version)) throw new UserError(`--version ${version}: give a Kubernetes release as major.minor.patch, e.g. ${KUBERNETES_VERSION}`);
      const dir = join(opgenCacheRoot(), 'controlplane', version);
      const binaries = ['etcd', 'kube-apiserver', 'kubectl', ...(options.controllerManager ? ['kube-controller-manager' as const] : [])] as const;
      const missing = binaries.filter((name) => !isExecutable(join(dir, name)));
      if (missing.length > 0) {
        process.stderr.write(`setup-envtest: downloading ${missing.join(', ')} v${version} into ${dir}\n`);
        try {
          await downloadControlPlane({ version, dir, binaries: missing });
        } catch (error) {
          if (error instanceof DownloadError) {
            throw new UserError(
              error.message,
              undefined,
              error.reason === 'checksum'
                ? 'the mirror serves other bytes than were published; fix the mirror, or report it'
                : 'point OPGEN_ENVTEST_INDEX (and OPGEN_K8S_RELEASE_URL) at a mirror you can reach, or run `npm test` with Go installed to build them',
            );
          }
          throw error;
        }
      }
      if (options.printPath) process.stdout.write(`${dir}\n`);
      else process.stdout.write(`${binaries.join(', ')} v${version} ${missing.length > 0 ? 'downloaded to' : 'already in'} ${dir}\n`);
    });
}
