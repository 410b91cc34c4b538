import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { opgenOk } from '../scaffold/run.js';

export { opgenOk };

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The Civo tutorial's project, as a user has it before adding the chart: scaffolded,
 * DemoVolume created, `opgen manifests` run (so config/ has the CRD and the manager's role).
 */
export async function scaffoldDemoVolume(dir: string, initArgs: readonly string[] = []): Promise<void> {
  await opgenOk(dir, 'init', '--domain', 'civo.com', '--skip-install', ...initArgs);
  await opgenOk(dir, 'create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume');
  await opgenOk(dir, 'manifests');
}

let helmPath: Promise<string> | undefined;

/**
 * The helm binary hack/helm/build.sh builds from Go modules (cached after the first build,
 * which takes minutes). Rejects when it cannot be had: the chart tests need the real helm.
 */
export function helmBinary(): Promise<string> {
  helmPath ??= run('bash', [`${repo}hack/helm/build.sh`], { maxBuffer: 16 << 20 }).then(({ stdout }) => stdout.trim());
  return helmPath;
}

/** `helm <args>`; resolves with stdout, rejects with helm's error output. */
export async function helm(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run(await helmBinary(), args, { maxBuffer: 64 << 20 });
    return stdout;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(stderr?.trim() || message);
  }
}
