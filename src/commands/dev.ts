import { Command } from 'commander';
import { contextOption, projectDirOption } from './shared-options.js';

interface DevCommandOptions {
  samples?: boolean;
  context?: string;
  logs?: boolean;
  dir: string;
}

/** `opgen dev`: the project's operator against a cluster, rebuilt and restarted on every save. */
export function devCommand(): Command {
  return new Command('dev')
    .description('run the operator against a memory cluster served on loopback (or --context), reloading it on every save')
    .option('--samples', 'apply config/samples once the CRDs are installed')
    .addOption(contextOption("use this context of your kubeconfig instead of the memory cluster"))
    .option('--logs', "print the operator's JSON log lines too (by default: one line per reconcile, warnings and errors)")
    .addOption(projectDirOption())
    .addHelpText(
      'after',
      `
The session's kubeconfig is .opgen/dev/kubeconfig (kubectl --kubeconfig .opgen/dev/kubeconfig get ...).
A save under src/ rebuilds and restarts the operator; a save that does not compile is shown and the
running operator keeps running; a change to src/api regenerates the manifests and re-applies the CRDs
first. Each reconcile is one line (object, trigger, duration, result); the live page whose loopback
URL is printed shows them with their API calls, and the objects with what they own.
Ctrl-C stops the operator and the cluster.

Examples:
  $ opgen dev
  $ opgen dev --samples
  $ opgen dev --context kind-dev`,
    )
    .action(async (options: DevCommandOptions) => {
      // Loaded when run: the session pulls in TypeScript.
      const { runDev } = await import('../dev/session.js');
      const { runManifests } = await import('./manifests.js');
      await runDev({ ...options, generateManifests: (dir) => runManifests({ dir }) });
    });
}
