import { Command, CommanderError } from 'commander';
import { createCommand } from './commands/create.js';
import { editCommand } from './commands/edit.js';
import { initCommand } from './commands/init.js';
import { manifestsCommand } from './commands/manifests.js';
import { versionCommand } from './commands/version.js';
import { UserError, UserErrors, formatUserError } from './errors.js';
import { paint } from './ui.js';
import { cliVersion } from './version.js';

/** The opgen program with every command registered; exported for tests. */
export function program(): Command {
  return new Command('opgen')
    .description('Kubernetes operators in TypeScript: scaffold projects, generate CRDs and RBAC')
    .version(cliVersion, '-V, --version-flag', 'print the opgen version')
    .option('--verbose', 'show stack traces of errors')
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: () => undefined })
    .addCommand(initCommand())
    .addCommand(createCommand())
    .addCommand(manifestsCommand())
    .addCommand(editCommand())
    .addCommand(versionCommand());
}

/**
 * Runs the CLI and returns the exit code. User errors print one line on stderr; anything
 * else is a bug and prints its stack trace.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const cli = program();
  // Sub-commands inherit the error handling and the silenced default error output.
  for (const command of allCommands(cli)) {
    command.exitOverride().configureOutput({ outputError: () => undefined });
  }
  try {
    await cli.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return report(error, argv.includes('--verbose'));
  }
}

function report(error: unknown, verbose: boolean): number {
  const red = (text: string) => paint('red', text, process.stderr);
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return 0; // --help and --version end through here
    // Commander puts its suggestion on a second line; a user error is one line.
    const message = error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    process.stderr.write(`${red('error:')} ${message}\n`);
    return error.exitCode || 1;
  }
  if (error instanceof UserErrors) {
    for (const e of error.errors) process.stderr.write(`${formatUserError(e)}\n`);
    return 1;
  }
  if (error instanceof UserError) {
    process.stderr.write(`${formatUserError(error)}\n`);
    if (verbose && error.stack) process.stderr.write(`${error.stack}\n`);
    return 1;
  }
  process.stderr.write(`${red('internal error:')} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 2;
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}
