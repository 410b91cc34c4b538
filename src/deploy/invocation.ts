/** The npm script `opgen init` scaffolds for each deploy command. */
const scaffoldScripts: Record<string, string> = {
  deploy: 'deploy',
  undeploy: 'undeploy',
  install: 'crds:install',
  uninstall: 'crds:uninstall',
  'build-installer': 'build-installer',
};

/**
 * How the user runs `opgen <command>`, for hints: `npm run <script>` when one of the
 * scaffold's npm scripts started this process (npm names it in npm_lifecycle_event), so the
 * project has those scripts; `opgen <command>` otherwise.
 */
export function invocation(command: string): string {
  const script = process.env.npm_lifecycle_event;
  const fromScaffoldScript = script !== undefined && Object.values(scaffoldScripts).includes(script);
  return fromScaffoldScript && scaffoldScripts[command] ? `npm run ${scaffoldScripts[command]}` : `opgen ${command}`;
}
