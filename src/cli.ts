import { Command, CommanderError } from 'commander';
import { UserError, UserErrors, formatUserError } from './errors.js';
import { paint } from './ui.js';
import { cliVersion } from './version.js';

/**
 * Each command's module, imported only when it may run: `opgen manifests` need not load the
 * scaffolding templates, nor `opgen init` the TypeScript parser.
 */
const commandModules: Record<string, () => Promise<Command>> = {
  init: async () => (await import('./commands/init.js')).initCommand(),
  create: async () => (await import('./commands/create.js')).createCommand(),
  manifests: async () => (await import('./commands/manifests.js')).manifestsCommand(),
  edit: async () => (await import('./commands/edit.js')).editCommand(),
  version: async () => (await import('./commands/version.js')).versionCommand(),
  install: async () => (await import('./commands/deploy.js')).installCommand(),
  uninstall: async () => (await import('./commands/deploy.js')).uninstallCommand(),
  deploy: async () => (await import('./commands/deploy.js')).deployCommand(),
  undeploy: async () => (await import('./commands/deploy.js')).undeployCommand(),
  'build-installer': async () => (await import('./commands/deploy.js')).buildInstallerCommand(),
};

/**
 * The opgen program with the command `argv` names registered, or every command when it
 * names none it knows (for help and "did you mean"); exported for tests.
 */
export async function program(argv: readonly string[] = []): Promise<Command> {
  const named = argv.slice(2).find((arg) => !arg.startsWith('-'));
  const wanted = named !== undefined && Object.hasOwn(commandModules, named) ? [named] : Object.keys(commandModules);
  const cli = new Command('opgen')
    .description('Kubernetes operators in TypeScript: scaffold projects, generate CRDs and RBAC, deploy')
    .version(cliVersion, '-V, --version-flag', 'print the opgen version')
    .option('--verbose', 'show stack traces of errors')
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: () => undefined });
  for (const command of await Promise.all(wanted.map((name) => commandModules[name]!()))) cli.addCommand(command);
  return cli;
}

/**
 * Runs the CLI and returns the exit code. User errors print one line on stderr; anything
 * else is a bug and prints its stack trace.
 */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const cli = await program(argv);
    // Sub-commands inherit the error handling and the silenced default error output.
    for (const command of allCommands(cli)) {
      command.exitOverride().configureOutput({ outputError: () => undefined });
    }
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
