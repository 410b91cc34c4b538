import { Command } from 'commander';
import { cliVersion } from '../version.js';

/** `opgen version`: the CLI version and the Node.js it runs on. */
export function versionCommand(): Command {
  return new Command('version')
    .description('print the opgen version')
    .addHelpText('after', '\nExample:\n  $ opgen version')
    .action(() => {
      process.stdout.write(`opgen ${cliVersion} (node ${process.versions.node})\n`);
    });
}
