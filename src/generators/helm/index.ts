/**
 * The Helm chart of a project (`opgen edit --plugins helm`), made from what kustomize
 * builds out of config/ the way kubebuilder's helm plugin does: every object becomes a
 * template of its own with the release's names, namespace and labels, and what users tune
 * (image, replicas, leader election, resources, metrics, RBAC, CRDs) comes from values.
 *
 * @module
 */
import type { GeneratedFile } from '../../writer/index.js';
import { goString, helpers as chartHelpers } from './actions.js';
import { chartYaml, helmignore, notesTxt } from './chart-files.js';
import { helpersTpl } from './helpers-tpl.js';
import type { HelmChartInput, Manifest } from './input.js';
import { managerFacts } from './manager.js';
import { looksLikeToken } from './splice.js';
import { chartTemplates, isMetricsService } from './templates.js';
import { valuesYaml } from './values.js';

export type { HelmChartInput, Manifest } from './input.js';

/** Where the chart goes, as kubebuilder's plugin puts it. */
export const chartDir = 'dist/chart';

/**
 * Every file of the chart under dist/chart/. Chart.yaml, values.yaml and .helmignore are written once
 * (`once`; with `force`, rewritten): after that they are the user's. The templates follow
 * config/ on every run (`generated`).
 */
export function helmChartFiles(input: HelmChartInput, options: { force?: boolean } = {}): GeneratedFile[] {
  if (looksLikeToken(JSON.stringify([input.manifests, input.optional]))) {
    throw new Error('the kustomize output holds text of the form __opgen_helm_<n>__, which the chart generator reserves');
  }
  const helpers = chartHelpers(input.projectName);
  const facts = managerFacts(input.manifests);
  const templates = chartTemplates(input, facts, helpers);
  const has = (kind: string) => input.manifests.some((m) => m.kind === kind);
  const kept = options.force ? 'generated' : 'once';
  const name = (object: Manifest | undefined) => {
    if (!object) return undefined;
    const { name: full } = object.metadata;
    return full.startsWith(input.namePrefix) ? helpers.resourceName(full.slice(input.namePrefix.length)) : full;
  };
  const serviceAccount = facts.serviceAccount ?? `${input.namePrefix}controller-manager`;
  const file = (path: string, content: string, ownership: GeneratedFile['ownership'] = 'generated'): GeneratedFile => ({
    path: `${chartDir}/${path}`,
    content,
    ownership,
  });
  return [
    file('Chart.yaml', chartYaml(input.projectName, input.appVersion), kept),
    file('values.yaml', valuesYaml(input, facts, { prometheus: has('ServiceMonitor'), networkPolicy: has('NetworkPolicy') }), kept),
    file('.helmignore', helmignore(), kept),
    file('templates/_helpers.tpl', helpersTpl(helpers, serviceAccount.startsWith(input.namePrefix) ? serviceAccount.slice(input.namePrefix.length) : serviceAccount)),
    file(
      'templates/NOTES.txt',
      notesTxt({
        deployment: name(facts.deployment)!,
        metricsService: name(input.manifests.find(isMetricsService)),
        lease: input.leaderElectionId ? `lease {{ .Values.leaderElection.leaseName | default ${goString(input.leaderElectionId)} }}` : 'leases',
      }),
    ),
    ...templates.map((t) => file(`templates/${t.path}`, t.content)),
  ];
}
