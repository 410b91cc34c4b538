import { runCommand } from './run-command.js';

/**
 * Runs `npm run build` (or another npm script) in a project and rejects with npm's output
 * when it fails: an e2e test starts the operator from what the build emits, as `npm start` does.
 *
 * @example
 * const [controlPlane] = await Promise.all([
 *   startControlPlane({ controllerManager: true }),
 *   buildProject(projectDir),
 * ]);
 */
export async function buildProject(dir: string, script = 'build'): Promise<void> {
  const { code, stdout, stderr } = await runCommand('npm', ['run', script], { cwd: dir });
  // tsc reports its errors on standard output.
  if (code !== 0) throw new Error(`npm run ${script} in ${dir} failed (exit ${code}):\n${`${stdout}${stderr}`.trim()}`);
}
