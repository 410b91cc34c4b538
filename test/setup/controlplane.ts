import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Provisions the control plane binaries once before any test file starts, so parallel
 * integration tests never race to build them. KUBEBUILDER_ASSETS, when set, wins.
 */
export default function setup(): void {
  if (process.env.KUBEBUILDER_ASSETS) return;
  const script = fileURLToPath(new URL('../../hack/controlplane/build.sh', import.meta.url));
  const assets = execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  process.env.KUBEBUILDER_ASSETS = assets;
}
