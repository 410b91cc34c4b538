import { isSeq, parse, parseDocument, type YAMLSeq } from 'yaml';
import { UserError } from '../../errors.js';
import { pluralOf } from '../../names/plural.js';
import { fullGroup, type Resource } from '../../project/model.js';
import type { GeneratedFile } from '../../writer/index.js';
import { generatedHeader, toYaml } from '../../yaml.js';
import { addResources } from '../scaffold/config/kustomize.js';
import { kindRoleFiles } from '../scaffold/config/rbac.js';
import { commonLabels, yamlFile } from '../scaffold/yaml-file.js';
import type { LocalChart } from './chart.js';
import { chartsDir, watchesFile } from './plugin.js';
import { valuesSchemaToCrd } from './values-schema.js';

/** What `create api --helm-chart` writes besides PROJECT. */
export interface HelmApi {
  projectName: string;
  namespaced: boolean;
  resource: Resource;
  chart: LocalChart;
  /** The chart's folder as the user named it, for located errors. */
  chartShownAs: string;
  /** `apiVersion`/`kind` of what the chart's templates name or render with its default values: the manager's RBAC. */
  renderedKinds: { apiVersion: string; kind: string }[];
  /** The per-kind roles' file and name stems (kindNames' roleFileStem and roleNameStem). */
  roleStems: { file: string; name: string };
  /** The current text of the files this command extends. */
  current: { watches: string; crdKustomization: string; samplesKustomization: string; role: string; rbacKustomization: string };
}

const paths = {
  crdKustomization: 'config/crd/kustomization.yaml',
  samplesKustomization: 'config/samples/kustomization.yaml',
  role: 'config/rbac/role.yaml',
  rbacKustomization: 'config/rbac/kustomization.yaml',
};
const allVerbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/** The files of a chart-backed kind: the copied chart, its watch, CRD, sample and RBAC. */
export function helmApiFiles(api: HelmApi): GeneratedFile[] {
  const { resource, chart } = api;
  const group = fullGroup(resource);
  const chartPath = `${chartsDir}/${chart.name}`;
  const crdFile = `${group}_${resource.plural}.yaml`;
  const sampleFile = `${resource.group}_${resource.version}_${resource.kind.toLowerCase()}.yaml`;
  const spec = chart.schema === undefined
    ? { type: 'object', description: `The values of the ${chart.name} chart.`, 'x-kubernetes-preserve-unknown-fields': true }
    : { description: `The values of the ${chart.name} chart.`, ...valuesSchemaToCrd(chart.schema, `${api.chartShownAs}/values.schema.json`) };
  // The admin, editor and viewer roles kubebuilder and operator-sdk give each kind, for the cluster's users.
  const roles = kindRoleFiles(api.projectName, { kind: resource.kind, fullGroup: group, plural: resource.plural, roleFileStem: api.roleStems.file, roleNameStem: api.roleStems.name });
  return [
    ...chart.files.map((f): GeneratedFile => ({ path: `${chartPath}/${f.path}`, content: f.content, ownership: 'user' })),
    { path: watchesFile, content: addWatch(api.current.watches, { group, version: resource.version, kind: resource.kind, chart: chartPath }), ownership: 'generated' },
    { path: `config/crd/bases/${crdFile}`, content: crd(resource, spec), ownership: 'generated' },
    { path: paths.crdKustomization, content: addResources(api.current.crdKustomization, [`bases/${crdFile}`], paths.crdKustomization), ownership: 'generated' },
    {
      path: `config/samples/${sampleFile}`,
      content: yamlFile([], { apiVersion: `${group}/${resource.version}`, kind: resource.kind, metadata: { labels: commonLabels(api.projectName), name: `${resource.kind.toLowerCase()}-sample` }, spec: chart.values }),
      ownership: 'once',
    },
    { path: paths.samplesKustomization, content: addResources(api.current.samplesKustomization, [sampleFile], paths.samplesKustomization), ownership: 'generated' },
    { path: paths.role, content: withRules(api.current.role, rulesFor(resource, api.renderedKinds)), ownership: 'generated' },
    ...roles,
    { path: paths.rbacKustomization, content: addResources(api.current.rbacKustomization, roles.map((r) => r.path.slice('config/rbac/'.length)), paths.rbacKustomization), ownership: 'generated' },
  ];
}

/** watches.yaml with the kind's entry appended, its comments and other entries kept. */
function addWatch(text: string, entry: { group: string; version: string; kind: string; chart: string }): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UserError(`not YAML: ${doc.errors[0]!.message.split('\n')[0]}`, { file: watchesFile });
  if (doc.contents !== null && !isSeq(doc.contents) && parse(text) !== null) throw new UserError('expected a list of watches', { file: watchesFile });
  if (!isSeq(doc.contents)) doc.contents = doc.createNode([]) as never;
  const seq = doc.contents as unknown as YAMLSeq;
  const same = (item: unknown) => {
    const value = (item as { toJSON?: () => unknown }).toJSON?.() as Record<string, unknown> | undefined;
    return value?.group === entry.group && value?.version === entry.version && value?.kind === entry.kind;
  };
  const index = seq.items.findIndex(same);
  if (index >= 0) seq.items[index] = doc.createNode(entry);
  else seq.items.push(doc.createNode(entry));
  seq.flow = false;
  return doc.toString({ lineWidth: 0, indentSeq: true });
}

function crd(resource: Resource, spec: Record<string, unknown>): string {
  const group = fullGroup(resource);
  const kind = resource.kind;
  return toYaml(
    [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `${resource.plural}.${group}` },
        spec: {
          group,
          names: { kind, listKind: `${kind}List`, plural: resource.plural, singular: kind.toLowerCase() },
          scope: resource.api?.namespaced === false ? 'Cluster' : 'Namespaced',
          versions: [
            {
              name: resource.version,
              schema: {
                openAPIV3Schema: {
                  description: `${kind} is one release of its Helm chart: its spec is the chart's values.`,
                  type: 'object',
                  properties: {
                    apiVersion: { description: 'APIVersion defines the versioned schema of this representation of an object.', type: 'string' },
                    kind: { description: 'Kind is a string value representing the REST resource this object represents.', type: 'string' },
                    metadata: { type: 'object' },
                    spec,
                    status: {
                      description: 'The release\'s state, as operator-sdk\'s helm operator reports it: conditions and deployedRelease.',
                      type: 'object',
                      'x-kubernetes-preserve-unknown-fields': true,
                    },
                  },
                },
              },
              served: true,
              storage: true,
              subresources: { status: {} },
            },
          ],
        },
      },
    ],
    { header: generatedHeader },
  );
}

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

/** The rights the chart's reconcile needs: its kind, its status and finalizers, events, and every kind the chart renders. */
function rulesFor(resource: Resource, rendered: { apiVersion: string; kind: string }[]): Rule[] {
  const group = fullGroup(resource);
  return [
    { apiGroups: [group], resources: [resource.plural], verbs: allVerbs },
    { apiGroups: [group], resources: [`${resource.plural}/status`], verbs: ['get', 'patch', 'update'] },
    { apiGroups: [group], resources: [`${resource.plural}/finalizers`], verbs: ['update'] },
    // The runtime's event recorder writes events.k8s.io/v1 Events.
    { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
    ...rendered.map(({ apiVersion, kind }) => ({ apiGroups: [apiVersion.includes('/') ? apiVersion.split('/')[0]! : ''], resources: [pluralOf(kind)], verbs: allVerbs })),
  ];
}

/** role.yaml with `rules` merged into its rules: one rule per API group and verb set, sorted. */
function withRules(text: string, rules: Rule[]): string {
  const role = parse(text) as { rules?: Rule[] } & Record<string, unknown>;
  const merged = new Map<string, Rule>();
  for (const rule of [...(role.rules ?? []), ...rules]) {
    for (const apiGroup of rule.apiGroups) {
      const verbs = [...rule.verbs].sort();
      const key = `${apiGroup}\u0000${verbs.join(',')}`;
      const into = merged.get(key) ?? { apiGroups: [apiGroup], resources: [], verbs };
      into.resources = [...new Set([...into.resources, ...rule.resources])].sort();
      merged.set(key, into);
    }
  }
  const sorted = [...merged.values()].sort((a, b) => a.apiGroups[0]!.localeCompare(b.apiGroups[0]!) || a.verbs.join().localeCompare(b.verbs.join()));
  return toYaml([{ ...role, rules: sorted }], { header: generatedHeader });
}
