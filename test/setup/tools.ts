import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Provisions the tools the tests run for real, once, before any test file starts, so that
 * parallel files never race to build them and no test's timeout includes a cold build:
 * the control plane (KUBEBUILDER_ASSETS, when set, wins), helm, prometheus, and
 * operator-framework's bundle validator. Each is built from Go modules on first use and
 * cached outside the repository.
 */
export default function setup(): void {
  if (!process.env.KUBEBUILDER_ASSETS) process.env.KUBEBUILDER_ASSETS = build('hack/controlplane/build.sh');
  build('hack/helm/build.sh');
  build('hack/prometheus/build.sh');
  build('hack/olm-validate/build.sh');
}

function build(script: string): string {
  const path = fileURLToPath(new URL(`../../${script}`, import.meta.url));
  return execFileSync('bash', [path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}
