import { Command, Option } from 'commander';
import { UserError } from '../errors.js';
import { formatResults, outputFormats, type OutputFormat } from '../bundle/scorecard/report.js';
import { runScorecard } from '../bundle/scorecard/index.js';
import { kubeconfigOption, contextOption } from './shared-options.js';

interface ScorecardOptions {
  output: OutputFormat;
  selector?: string;
  kubeconfig?: string;
  context?: string;
  namespace?: string;
}

/** `opgen scorecard`: operator-sdk's basic and OLM scorecard checks, run in-process. */
export function scorecardCommand(): Command {
  return new Command('scorecard')
    .description("run operator-sdk's basic and OLM scorecard checks against a bundle and the cluster")
    .argument('[bundle]', 'the bundle directory', 'bundle')
    .addOption(new Option('-o, --output <format>', 'how to print the results').choices(outputFormats).default('text'))
    .option('-l, --selector <label>', 'run only the checks with this label: suite=basic|olm, test=<check>-test, or a check name')
    .addOption(kubeconfigOption())
    .addOption(contextOption())
    .option('-n, --namespace <name>', "where basic-check-spec creates the examples (default: the context's namespace)")
    .addHelpText(
      'after',
      `
Checks: basic-check-spec (each alm-example, created on the cluster as a server-side dry run, has
a spec), olm-bundle-validation (opgen bundle validate), olm-crds-have-validation,
olm-crds-have-resources, olm-spec-descriptors, olm-status-descriptors. The bundle's CRDs must be
installed on the cluster (opgen install). Exits 1 when a check fails.

Examples:
  $ opgen scorecard
  $ opgen scorecard --selector suite=olm --output xml > scorecard.xml`,
    )
    .action(async (dir: string, options: ScorecardOptions) => {
      const flags = [...(options.kubeconfig ? [`--kubeconfig=${options.kubeconfig}`] : []), ...(options.context ? [`--context=${options.context}`] : [])];
      const results = await runScorecard(dir, { flags, namespace: options.namespace }, options.selector);
      process.stdout.write(formatResults(results, options.output));
      const failed = results.filter((r) => r.state !== 'pass');
      if (failed.length) throw new UserError(`${failed.length} of ${results.length} scorecard checks did not pass: ${failed.map((r) => r.name).join(', ')}`);
    });
}
