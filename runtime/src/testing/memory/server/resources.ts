/**
 * What the memory API server knows about each resource it serves: the part of a REST
 * storage's strategy that differs between kinds, as plain data. Built-in kinds come from
 * the table in `builtin-resources.ts`; custom resources from their CRDs (`fromCRD`).
 */
import type { GroupKind, GroupResource } from './errors.js';

/**
 * When `metadata.generation` moves, as each kind's strategy decides it:
 * - `spec`: set to 1 on create, +1 when `spec` changes (StatefulSet, Job, CronJob, Pod...);
 * - `spec-annotations`: also when annotations change (Deployment, whose annotations are copied to its ReplicaSets);
 * - `non-metadata`: +1 when anything but `metadata` (and `status` when it is a subresource) changes (custom resources);
 * - `none`: the kind's strategy never touches it (ConfigMap, Secret...).
 */
export type GenerationPolicy = 'spec' | 'spec-annotations' | 'non-metadata' | 'none';

/** Which validation the kind's strategy gives `metadata.name`. */
export type NameRule = 'dns-subdomain' | 'dns-label' | 'dns-1035-label' | 'path-segment';

export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  /** The `/status` subresource is served, and the main resource ignores `status`. */
  status: boolean;
  generation: GenerationPolicy;
  /** A PUT of a missing object creates it (Lease, Event, Endpoints). */
  allowCreateOnUpdate: boolean;
  /** A PUT without `metadata.resourceVersion` overwrites (built-ins); custom resources refuse it. */
  allowUnconditionalUpdate: boolean;
  nameRule: NameRule;
  /**
   * Field selectors beside `metadata.name` and `metadata.namespace`: paths into the object
   * (CRD `selectableFields`, Secret `type`...).
   */
  selectableFields: string[];
  /**
   * `default`: unsupported selectors answer `"x" is not a known field selector: only ...`
   * (apimachinery's default conversion and CRDs); `label`: `field label not supported: x`
   * (kinds with their own conversion function, e.g. Pod, Event).
   */
  fieldSelectorError: 'default' | 'label';
  /** What `PrepareForCreate` puts in `status` of a new object (built-ins reset it); undefined: left as sent, or removed when `status` is a subresource. */
  initialStatus?: Record<string, unknown>;
  /** Strategic merge patch is accepted (built-in kinds only: custom resources answer 415). */
  strategicMergePatch: boolean;
  /** The CRD this resource comes from (custom resources only): the schema part reads its schema from it. */
  crd?: CustomResourceDefinitionLike;
}

/** The parts of a CRD the server reads; the full object is kept for the schema part. */
export interface CustomResourceDefinitionLike {
  metadata?: { name?: string };
  spec: {
    group: string;
    names: { kind: string; plural: string; singular?: string; listKind?: string };
    scope: 'Namespaced' | 'Cluster';
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      subresources?: { status?: object; scale?: object };
      selectableFields?: { jsonPath: string }[];
      schema?: { openAPIV3Schema?: unknown };
    }[];
  };
}

export const groupResource = (info: ResourceInfo): GroupResource => ({ group: info.group, resource: info.plural });
export const groupKind = (info: ResourceInfo): GroupKind => ({ group: info.group, kind: info.kind });
export const apiVersionOf = (info: Pick<ResourceInfo, 'group' | 'version'>): string => (info.group === '' ? info.version : `${info.group}/${info.version}`);

/** One resource per served version of the CRD, as apiextensions-apiserver registers them. */
export function fromCRD(crd: CustomResourceDefinitionLike): ResourceInfo[] {
  const { group, names, scope, versions } = crd.spec;
  return versions
    .filter((v) => v.served)
    .map((version) => ({
      group,
      version: version.name,
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      namespaced: scope === 'Namespaced',
      status: version.subresources?.status !== undefined,
      generation: 'non-metadata' as const,
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
      nameRule: 'dns-subdomain' as const,
      selectableFields: (version.selectableFields ?? []).map((f) => f.jsonPath.replace(/^\./, '')),
      // With selectable fields the CRD's own field label conversion answers; without, apimachinery's default.
      fieldSelectorError: (version.selectableFields ?? []).length > 0 ? ('label' as const) : ('default' as const),
      strategicMergePatch: false,
      crd,
    }));
}
