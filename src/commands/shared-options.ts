import { Option } from 'commander';

/**
 * The options every command that reads or writes a project, or talks to a cluster, spells the
 * same way: one home, so `--dir` and `--context` mean one thing on every command.
 */

/** `--dir <path>`: the project's root directory, default the working directory. */
export function projectDirOption(description = "the project's root directory"): Option {
  return new Option('--dir <path>', description).default('.');
}

/** `--kubeconfig <file>`, as kubectl's. */
export function kubeconfigOption(): Option {
  return new Option('--kubeconfig <file>', 'the kubeconfig to use instead of $KUBECONFIG or ~/.kube/config');
}

/** `--context <name>`, as kubectl's. */
export function contextOption(description = 'the kubeconfig context to use instead of the current one'): Option {
  return new Option('--context <name>', description);
}

/** What {@link projectDirOption} adds to a command's parsed options. */
export interface ProjectDirFlag {
  dir: string;
}
