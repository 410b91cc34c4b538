/**
 * Imported CRDs → the files under `src/external/<group>/<version>/`: for every served
 * version a `<kind>_types.ts` with the Kind's types, markers and handle, and the folder's
 * `groupversion_info.ts`, laid out as a project's own API folders are; and the CRD itself
 * under `config/crd/external/`, which the test clusters install beside the project's own. Pure and
 * deterministic: the same CRDs give the same files byte for byte.
 *
 * @module
 */
import type { CrdVersion, CustomResourceDefinition } from '../crd/types.js';
import { generatedHeader, toYaml } from '../yaml.js';
import { externalApiRoot } from '../project/model.js';
import type { GeneratedFile } from '../writer/index.js';
import { emitGroupVersion, emitVersion } from './emit.js';
import { quote } from './markers.js';
import { versionTypes, type Problem } from './model.js';

/** Where the imported CRDs themselves are kept, for the test clusters to install. */
export const externalCrdRoot = 'config/crd/external';

/** The header line naming where an imported file came from: how a re-import finds its own files. */
export const importedFromLine = (source: string, crd: string): string => `Imported from ${source}: CustomResourceDefinition ${crd}`;

/** kubectl's copy of what it applied, on a CRD read from a cluster: not the author's. */
const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';

/** Annotations no marker writes back: the generators' own and kubectl's copy. */
const unmarkedAnnotations = new Set(['controller-gen.kubebuilder.io/version', 'opgen.dev/version', lastApplied]);

/** One CRD to import, with where it came from (shown in headers and warnings). */
export interface ImportInput {
  crd: CustomResourceDefinition;
  /** The file, URL or `-` it was read from. */
  source: string;
  line?: number;
}

/** A problem of one CRD: `path` is its JSON path in that CRD. */
export interface LocatedProblem extends Problem {
  source: string;
  line?: number;
  crd: string;
}

export interface ImportResult {
  files: GeneratedFile[];
  problems: LocatedProblem[];
}

/** The files of `inputs`, in path order, and what of them will not round-trip. */
export function generateImport(inputs: readonly ImportInput[]): ImportResult {
  const files = new Map<string, GeneratedFile>();
  const problems: LocatedProblem[] = [];
  for (const { crd, source, line } of inputs) {
    const { group, names } = crd.spec;
    const header = [generatedHeader.replace('opgen', 'opgen import crd'), `${importedFromLine(source, crd.metadata.name)}.`];
    const located = (p: Problem): LocatedProblem => ({ ...p, source, ...(line !== undefined ? { line } : {}), crd: crd.metadata.name });
    problems.push(...crdProblems(crd).map(located));
    const copy = `${externalCrdRoot}/${crd.metadata.name}.yaml`;
    files.set(copy, { path: copy, content: toYaml([installable(crd)], { header: `${header[0]} ${header[1]}` }), ownership: 'generated' });
    crd.spec.versions.forEach((version, index) => {
      if (!version.served) return;
      const dir = `${externalApiRoot}/${group}/${version.name}`;
      const path = `spec.versions[${index}].schema.openAPIV3Schema`;
      const types = versionTypes(names.kind, version.schema.openAPIV3Schema, path, kindMarkers(crd, version, index, (p) => problems.push(located(p))));
      problems.push(...types.problems.map(located));
      const handle = { kind: names.kind, plural: names.plural, namespaced: crd.spec.scope !== 'Cluster' };
      files.set(`${dir}/${names.kind.toLowerCase()}_types.ts`, { path: `${dir}/${names.kind.toLowerCase()}_types.ts`, content: emitVersion(types, handle, header), ownership: 'generated' });
      files.set(`${dir}/groupversion_info.ts`, { path: `${dir}/groupversion_info.ts`, content: emitGroupVersion(group, version.name, [generatedHeader.replace('opgen', 'opgen import crd')]), ownership: 'generated' });
    });
  }
  return { files: [...files.values()].sort((a, b) => a.path.localeCompare(b.path)), problems };
}

/**
 * The CRD as the project installs it: what its author wrote, without what an API server
 * adds to the one `--from-cluster` reads (status, uid, managed fields, kubectl's
 * last-applied annotation).
 */
function installable(crd: CustomResourceDefinition): CustomResourceDefinition {
  const { name, annotations, labels } = crd.metadata;
  const kept = Object.entries(annotations ?? {}).filter(([key]) => key !== lastApplied);
  return {
    apiVersion: crd.apiVersion,
    kind: crd.kind,
    metadata: { ...(kept.length ? { annotations: Object.fromEntries(kept) } : {}), name, ...(labels ? { labels } : {}) },
    spec: crd.spec,
  };
}

/** The CRD-wide and version markers of the Kind's interface. */
function kindMarkers(crd: CustomResourceDefinition, version: CrdVersion, index: number, problem: (p: Problem) => void): string[] {
  const { names, scope } = crd.spec;
  const resource = [`path=${names.plural}`, `scope=${scope}`];
  if (names.singular && names.singular !== names.kind.toLowerCase()) resource.push(`singular=${names.singular}`);
  if (names.shortNames?.length) resource.push(`shortName=${names.shortNames.join(';')}`);
  if (names.categories?.length) resource.push(`categories=${names.categories.join(';')}`);
  const out = [`+kubebuilder:resource:${resource.join(',')}`];
  if (version.subresources?.status) {
    if (version.schema.openAPIV3Schema.properties?.status) out.push('+kubebuilder:subresource:status');
    else problem({ path: `spec.versions[${index}].subresources.status`, message: 'a status subresource without a status property, which opgen manifests refuses' });
  }
  const scale = version.subresources?.scale;
  if (scale) {
    const selector = scale.labelSelectorPath !== undefined ? `,selectorpath=${quote(scale.labelSelectorPath)}` : '';
    out.push(`+kubebuilder:subresource:scale:specpath=${quote(scale.specReplicasPath)},statuspath=${quote(scale.statusReplicasPath)}${selector}`);
  }
  if (crd.spec.versions.filter((v) => v.served).length > 1 && version.storage) out.push('+kubebuilder:storageversion');
  if (version.deprecated) out.push(`+kubebuilder:deprecatedversion${version.deprecationWarning !== undefined ? `:warning=${quote(version.deprecationWarning)}` : ''}`);
  for (const c of version.additionalPrinterColumns ?? []) {
    const args = [`name=${quote(c.name)}`, `type=${quote(c.type)}`, `JSONPath=${quote(c.jsonPath)}`];
    if (c.description) args.push(`description=${quote(c.description)}`);
    if (c.format) args.push(`format=${quote(c.format)}`);
    if (c.priority) args.push(`priority=${c.priority}`);
    out.push(`+kubebuilder:printcolumn:${args.join(',')}`);
  }
  for (const f of version.selectableFields ?? []) out.push(`+kubebuilder:selectablefield:JSONPath=${quote(f.jsonPath)}`);
  for (const [key, value] of Object.entries(crd.metadata.annotations ?? {})) {
    if (!unmarkedAnnotations.has(key)) out.push(`+kubebuilder:metadata:annotations=${quote(`${key}=${value}`)}`);
  }
  for (const [key, value] of Object.entries(crd.metadata.labels ?? {})) out.push(`+kubebuilder:metadata:labels=${quote(`${key}=${value}`)}`);
  return out;
}

/** What of the CRD outside its schemas no marker gives back. */
function crdProblems(crd: CustomResourceDefinition): Problem[] {
  const problems: Problem[] = [];
  const spec = crd.spec as CustomResourceDefinition['spec'] & { conversion?: { strategy?: string }; preserveUnknownFields?: boolean };
  if (spec.names.listKind && spec.names.listKind !== `${spec.names.kind}List`) problems.push({ path: 'spec.names.listKind', message: `listKind ${spec.names.listKind} has no marker (opgen writes ${spec.names.kind}List)` });
  if (spec.conversion && spec.conversion.strategy !== 'None') problems.push({ path: 'spec.conversion', message: `conversion strategy ${spec.conversion.strategy} belongs to the CRD's own project` });
  if (spec.preserveUnknownFields) problems.push({ path: 'spec.preserveUnknownFields', message: 'preserveUnknownFields: true has no marker' });
  if (crd.metadata.name !== `${spec.names.plural}.${spec.group}`) problems.push({ path: 'metadata.name', message: `name ${crd.metadata.name} is not <plural>.<group>` });
  spec.versions.forEach((v, i) => {
    if (!v.served) problems.push({ path: `spec.versions[${i}]`, message: `version ${v.name} is not served, so it is not imported` });
  });
  return problems;
}
