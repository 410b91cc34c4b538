/**
 * The PROJECT file: what `opgen init` decided and what each `opgen create api` added, in
 * the shape of kubebuilder's `version: "3"` file so its users can read it at a glance.
 *
 * @module
 */

/** The layout opgen writes and the only one it reads. */
export const opgenLayout = 'typescript.opgen.dev/v1';

/** The file name, at the root of a project. */
export const projectFileName = 'PROJECT';

/**
 * Where `opgen import crd` writes other projects' API types (`<group>/<version>/` folders
 * laid out as src/api's): their markers describe those projects' CRDs, which `opgen
 * manifests` reads but never writes.
 */
export const externalApiRoot = 'src/external';

export interface ProjectConfig {
  /**
   * The opgen whose scaffold the project has (kubebuilder's `cliVersion`): written by `init`
   * and `upgrade`, kept by every other command. Absent in projects made before opgen
   * recorded it, which have the scaffold of the first release, 0.1.0.
   */
  cliVersion?: string;
  domain: string;
  projectName: string;
  /** API types under `src/api/<group>/<version>/` instead of `src/api/<version>/`. */
  multigroup: boolean;
  /** The operator watches only its own namespace: Roles instead of ClusterRoles. */
  namespaced: boolean;
  resources: Resource[];
  /** Top-level keys opgen does not know, kept as they were (e.g. other tools' plugins). */
  extra: Record<string, unknown>;
}

/** One group/version/kind the project serves or controls. */
export interface Resource {
  /** The short group, e.g. `storage`; the full API group is `<group>.<domain>`. */
  group: string;
  version: string;
  kind: string;
  domain: string;
  plural: string;
  /** Present when the project defines the kind's API types. */
  api?: ResourceApi;
  /** The folder of the API types, e.g. `src/api/v1`. */
  path?: string;
  controller: boolean;
  /** Keys opgen does not know (such as webhooks), kept as they were. */
  extra: Record<string, unknown>;
}

export interface ResourceApi {
  crdVersion: 'v1';
  namespaced: boolean;
}

/**
 * `<group>.<domain>`: the API group clients use. A built-in kind has an empty domain
 * (`apps`) or `k8s.io`, and kubebuilder's group `core` is the API group ''.
 */
export function fullGroup(resource: Pick<Resource, 'group' | 'domain'>): string {
  if (resource.domain === '') return resource.group === 'core' ? '' : resource.group;
  return `${resource.group}.${resource.domain}`;
}

/** True when both name the same API group, version and kind (`batch` CronJob is not `batch.<domain>` CronJob). */
export function sameGvk(
  a: Pick<Resource, 'group' | 'domain' | 'version' | 'kind'>,
  b: Pick<Resource, 'group' | 'domain' | 'version' | 'kind'>,
): boolean {
  return fullGroup(a) === fullGroup(b) && a.version === b.version && a.kind === b.kind;
}
