/** The npm scripts `opgen init` scaffolds for each deploy command. */
const scaffoldScripts: Record<string, string> = {
  deploy: 'deploy',
  undeploy: 'undeploy',
  install: 'crds:install',
  uninstall: 'crds:uninstall',
  'build-installer': 'build-installer',
};

/**
 * How the user runs `opgen <command>`, for hints: `npm run <script>` when an npm script
 * started this one (npm names it in npm_lifecycle_event) and it is the scaffold's script, or
 * it is this command itself; `opgen <command>` otherwise.
 */
export function invocation(command: string): string {
  const script = process.env.npm_lifecycle_event;
  if (!script) return `opgen ${command}`;
  const running = Object.entries(scaffoldScripts).find(([, name]) => name === script)?.[0];
  if (running === undefined) return command === currentCommand() ? `npm run ${script}` : `opgen ${command}`;
  return `npm run ${scaffoldScripts[command] ?? script}`;
}

/** The opgen sub-command of this process, e.g. `deploy` for `opgen deploy --image …`. */
function currentCommand(): string | undefined {
  return process.argv.slice(2).find((arg) => !arg.startsWith('-'));
}
