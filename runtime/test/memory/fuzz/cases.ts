/**
 * The fuzz run's cases: each is a pure function of the run's seed and its index (which
 * served version of which corpus CRD, which area, which site, which write), so a failing
 * case is rerun alone by `FUZZ_SEED=<seed> FUZZ_ONLY=<index>`.
 */
import { generate, type Schema } from './generate.js';
import { AREAS, mutate, sitesOf, type FuzzArea, type Site } from './mutate.js';
import { caseRandom, type Random } from './prng.js';

export const NAMESPACE = 'fuzz';
export const MANAGER = 'fuzz';

/** One served version of a corpus CRD, with its schema's sites. */
export interface Target {
  id: string;
  apiVersion: string;
  kind: string;
  /** The collection's path. */
  collection: string;
  namespaced: boolean;
  schema: Schema;
  sites: Map<FuzzArea, Site[]>;
}

export type Operation = 'create' | 'update' | 'merge patch' | 'apply';
export const OPERATIONS: readonly Operation[] = ['create', 'update', 'merge patch', 'apply'];

export interface FuzzCase {
  index: number;
  target: Target;
  area: FuzzArea;
  operation: Operation;
  /** The site's path, dotted (`[]` an array's first item, `{}` a map's first key). */
  site: string;
  what: string;
  /** The object as generated and mutated (without name or resourceVersion). */
  object: Record<string, unknown>;
  query: Record<string, string>;
}

interface Version {
  name: string;
  served: boolean;
  schema?: { openAPIV3Schema?: Schema };
  subresources?: { status?: object };
}

/** The served versions of the CRDs, as targets. */
export function targetsOf(crds: Array<Record<string, unknown>>): Target[] {
  return crds.flatMap((crd) => {
    const spec = crd.spec as { group: string; scope: string; names: { kind: string; plural: string }; versions: Version[] };
    return spec.versions
      .filter((version) => version.served && version.schema?.openAPIV3Schema)
      .map((version) => {
        const namespaced = spec.scope === 'Namespaced';
        const apiVersion = `${spec.group}/${version.name}`;
        const schema = version.schema!.openAPIV3Schema!;
        return {
          id: `${spec.names.plural}.${spec.group}/${version.name}`,
          apiVersion,
          kind: spec.names.kind,
          collection: `/apis/${apiVersion}${namespaced ? `/namespaces/${NAMESPACE}` : ''}/${spec.names.plural}`,
          namespaced,
          schema,
          sites: sitesOf(schema, version.subresources?.status !== undefined),
        };
      });
  });
}

/** A valid-looking object of `target`, as the base the update cases write over. */
export function baseObject(target: Target, rng: Random): Record<string, unknown> {
  return { ...(generate(target.schema, rng) as Record<string, unknown>), apiVersion: target.apiVersion, kind: target.kind };
}

/** The name of the base object of a target (per version: versions share one storage). */
export function baseName(target: Target): string {
  return `base-${target.apiVersion.split('/')[1]}`;
}

/** Case `index` of the run seeded `seed`. */
export function fuzzCase(seed: number, index: number, targets: Target[]): FuzzCase {
  const rng = caseRandom(seed, index);
  const target = targets[index % targets.length]!;
  const offered = AREAS.filter((area) => target.sites.has(area));
  const area = rng.pick(offered);
  const site = rng.pick(target.sites.get(area)!);
  const operation = area === 'transition rules' ? rng.pick(OPERATIONS.slice(1)) : rng.pick(OPERATIONS);
  const object = generate(target.schema, rng, site.path) as Record<string, unknown>;
  const mutated = mutate(object, site, area, rng);
  const site_ = site.path.map((segment) => ('prop' in segment ? segment.prop : 'item' in segment ? '[]' : '{}')).join('.');
  return {
    index,
    target,
    area,
    operation,
    site: site_,
    what: mutated.what,
    object: { ...object, apiVersion: target.apiVersion, kind: target.kind },
    query: { dryRun: 'All', ...mutated.query },
  };
}
