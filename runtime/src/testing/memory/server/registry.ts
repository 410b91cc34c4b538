/**
 * The resources being served, looked up the ways requests need: by URL
 * (group/version/plural), by apiVersion and kind (owner references), and their storage
 * key (one store per group and resource, shared by a CRD's versions).
 */
import { BUILTIN_RESOURCES } from './builtin-resources.js';
import { fromCRD, type CustomResourceDefinitionLike, type ResourceInfo } from './resources.js';

export interface Registry {
  byPath(group: string, version: string, plural: string): ResourceInfo | undefined;
  byKind(apiVersion: string, kind: string): ResourceInfo | undefined;
  all(): ResourceInfo[];
  /** Serves the CRD's versions (replacing what an older revision of it served). */
  addCRD(crd: CustomResourceDefinitionLike): void;
  removeCRD(group: string, plural: string): void;
}

/** Where objects of a resource are stored, whichever version a request names. */
export const storageKey = (info: Pick<ResourceInfo, 'group' | 'plural'>): string => `${info.group}/${info.plural}`;

export function createRegistry(): Registry {
  const paths = new Map<string, ResourceInfo>();
  const add = (info: ResourceInfo) => paths.set(`${info.group}/${info.version}/${info.plural}`, info);
  for (const info of BUILTIN_RESOURCES) add(info);
  const removeCRD = (group: string, plural: string) => {
    for (const [key, info] of paths) if (info.crd && info.group === group && info.plural === plural) paths.delete(key);
  };
  return {
    byPath: (group, version, plural) => paths.get(`${group}/${version}/${plural}`),
    byKind(apiVersion, kind) {
      const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
      for (const info of paths.values()) if (info.group === group && info.version === version && info.kind === kind) return info;
      return undefined;
    },
    all: () => [...paths.values()],
    addCRD(crd) {
      removeCRD(crd.spec.group, crd.spec.names.plural);
      for (const info of fromCRD(crd)) add(info);
    },
    removeCRD,
  };
}

/** The storage version of a CRD (the version objects are kept in): the one marked `storage`. */
export function storageVersion(info: ResourceInfo): string {
  return info.crd?.spec.versions.find((v) => v.storage)?.name ?? info.version;
}
