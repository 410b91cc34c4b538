import type { AssembledCrd } from '../crd/assemble.js';
import { isShared } from '../schema/shared.js';
import type { GeneratedFile } from '../writer/index.js';
import { generatedHeader, toYaml } from '../yaml.js';

/** `config/crd/bases/<group>_<plural>.yaml` for each CRD, keys sorted like controller-gen's output. */
export function generateCrds(crds: readonly AssembledCrd[]): GeneratedFile[] {
  return crds.map((crd) => ({
    path: crdPath(crd),
    content: toYaml([sortKeys(crd.crd)], { header: generatedHeader, reusable: isShared }),
    ownership: 'generated',
  }));
}

/** Where a CRD is written, relative to the project root. */
export function crdPath(crd: Pick<AssembledCrd, 'group' | 'plural'>): string {
  return `config/crd/bases/${crd.group}_${crd.plural}.yaml`;
}

/**
 * The sorted forms of shared (frozen) built-in subtrees: they cannot change, so a pod
 * template in every kind is sorted once, and its sorted form is frozen too, which lets the
 * YAML emitter write it once.
 */
const sortedShared = new WeakMap<object, unknown>();

/** A copy of `value` with every object's keys in alphabetical order (arrays keep theirs). */
export function sortKeys(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  if (!isShared(value)) return sortedCopy(value);
  let sorted = sortedShared.get(value);
  if (sorted === undefined) {
    sorted = Object.freeze(sortedCopy(value));
    sortedShared.set(value, sorted);
  }
  return sorted;
}

function sortedCopy(value: object): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = sortKeys((value as Record<string, unknown>)[key]);
    // A field named __proto__ must stay a field, not become the prototype.
    if (key === '__proto__') Object.defineProperty(sorted, key, { value: child, enumerable: true, writable: true, configurable: true });
    else sorted[key] = child;
  }
  return sorted;
}
