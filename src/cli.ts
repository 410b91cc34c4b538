import { Command, CommanderError, Option } from 'commander';
import { UserError, UserErrors, formatUserError } from './errors.js';
import { commandSummaries } from './command-summaries.js';
import { requireOptionsAfterUnknown } from './cli-required-options.js';
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
  delete: async () => (await import('./commands/delete.js')).deleteCommand(),
  version: async () => (await import('./commands/version.js')).versionCommand(),
  install: async () => (await import('./commands/deploy.js')).installCommand(),
  uninstall: async () => (await import('./commands/deploy.js')).uninstallCommand(),
  deploy: async () => (await import('./commands/deploy.js')).deployCommand(),
  undeploy: async () => (await import('./commands/deploy.js')).undeployCommand(),
  'build-installer': async () => (await import('./commands/deploy.js')).buildInstallerCommand(),
  upgrade: async () => (await import('./commands/upgrade.js')).upgradeCommand(),
  alpha: async () => (await import('./commands/alpha.js')).alphaCommand(),
  bundle: async () => (await import('./commands/bundle.js')).bundleCommand(),
  scorecard: async () => (await import('./commands/scorecard.js')).scorecardCommand(),
  'setup-envtest': async () => (await import('./commands/setup-envtest.js')).setupEnvtestCommand(),
  import: async () => (await import('./commands/import.js')).importCommand(),
  'migrate-storage': async () => (await import('./commands/migrate-storage.js')).migrateStorageCommand(),
  dev: async () => (await import('./commands/dev.js')).devCommand(),
};

/**
 * The opgen program. With `argv`, only the command it runs is loaded; the others are listed
 * from their summaries (`opgen --help` and `opgen version` load neither the scaffolding
 * templates nor TypeScript). Without, every command is loaded (for tests that walk them all).
 */
export async function program(argv?: readonly string[]): Promise<Command> {
  const wanted = argv ? commandToRun(argv) : undefined;
  const cli = new Command('opgen')
    .description('Kubernetes operators in TypeScript: scaffold projects, generate CRDs and RBAC, deploy')
    .version(cliVersion, '-V, --version', 'print the opgen version')
    .option('--verbose', 'show stack traces of errors')
    // Root options only before a command: `create api --version v1` is the API version.
    .enablePositionalOptions()
    // Nor after an unknown command: `opgen creat api --version v1` is a typo of create, not a
    // request for opgen's version.
    .passThroughOptions()
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: () => undefined });
  const summarised = new Map<Command, string>();
  const commands = await Promise.all(
    commandSummaries.map(async (summary) => {
      if (argv === undefined || summary.name === wanted) return commandModules[summary.name]!();
      const standIn = new Command(summary.name).description(summary.description);
      summarised.set(standIn, summary.term);
      return standIn;
    }),
  );
  for (const command of commands) cli.addCommand(command);
  if (summarised.size) {
    const listed = cli.createHelp();
    cli.configureHelp({ subcommandTerm: (command) => summarised.get(command) ?? listed.subcommandTerm(command) });
  }
  return cli;
}

/** The command `argv` runs, also through `opgen help <command>`. */
function commandToRun(argv: readonly string[]): string | undefined {
  const words = argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const named = words[0] === 'help' ? words[1] : words[0];
  return named !== undefined && Object.hasOwn(commandModules, named) ? named : undefined;
}

/**
 * Runs the CLI and returns the exit code. User errors print one line on stderr; anything
 * else is a bug and prints its stack trace.
 */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const cli = await program(argv);
    // Sub-commands inherit the error handling and the silenced default error output. Help
    // shown for a bare command group (`opgen`, `opgen create`) is an answer, not an error:
    // stdout. `--verbose` is accepted after a command too.
    for (const command of allCommands(cli)) {
      command.exitOverride().configureOutput({ outputError: () => undefined, writeErr: (text) => process.stdout.write(text) });
      if (command !== cli) command.addOption(new Option('--verbose').hideHelp());
    }
    requireOptionsAfterUnknown(cli);
    await cli.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return report(error, argv.includes('--verbose'));
  }
}

function report(error: unknown, verbose: boolean): number {
  const red = (text: string) => paint('red', text, process.stderr);
  if (error instanceof CommanderError) {
    // --help, --version and the help of a bare command group end through here.
    if (error.exitCode === 0 || error.code === 'commander.help') return 0;
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
