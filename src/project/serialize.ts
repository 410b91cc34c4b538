import { generatedHeader, toYaml } from '../yaml.js';
import { opgenLayout, type ProjectConfig, type Resource } from './model.js';
import { certificateModeKey } from './webhooks.js';

const preamble = [
  `# ${generatedHeader}`,
  '# This file records how the project was scaffolded; opgen create api reads and extends it.',
  '',
].join('\n');

/** The text of a PROJECT file: fixed key order, so the same project always reads the same. */
export function serializeProject(project: ProjectConfig): string {
  // A setting like multigroup, in its place whenever it was set (create webhook or edit).
  const { [certificateModeKey]: certificates, ...extra } = project.extra;
  const data: Record<string, unknown> = {
    version: '3',
    ...(project.cliVersion !== undefined ? { cliVersion: project.cliVersion } : {}),
    layout: [opgenLayout],
    domain: project.domain,
    projectName: project.projectName,
    ...(project.multigroup ? { multigroup: true } : {}),
    ...(project.namespaced ? { namespaced: true } : {}),
    ...(certificates !== undefined ? { [certificateModeKey]: certificates } : {}),
    ...extra,
    resources: project.resources.map(resourceData),
  };
  return preamble + toYaml([data]);
}

function resourceData(resource: Resource): Record<string, unknown> {
  return {
    ...(resource.api ? { api: { crdVersion: resource.api.crdVersion, namespaced: resource.api.namespaced } } : {}),
    controller: resource.controller,
    // kubebuilder records no domain for the built-in kinds of the groups without one (apps, core).
    ...(resource.domain ? { domain: resource.domain } : {}),
    group: resource.group,
    kind: resource.kind,
    ...(resource.path ? { path: resource.path } : {}),
    plural: resource.plural,
    version: resource.version,
    ...resource.extra,
  };
}
