/**
 * The round trip of an imported CRD: its generated types, built by `opgen manifests`' CRD
 * builder as if they were the project's own API, and the paths where the result differs
 * from the original.
 *
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import { buildCrds } from '../../src/crd/build.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { generateImport, type ImportResult } from '../../src/import/generate.js';
import type { ProjectConfig } from '../../src/project/model.js';

const project: ProjectConfig = { domain: 'example.com', projectName: 'roundtrip', multigroup: true, namespaced: false, resources: [], extra: {} };

export interface RoundTrip {
  imported: ImportResult;
  /** The CRD `opgen manifests` builds from the imported types. */
  built?: CustomResourceDefinition;
  /** Build errors, one line each. */
  errors: string[];
}

/** Imports `crd`, then builds it back. */
export function roundTrip(crd: CustomResourceDefinition, source: string): RoundTrip {
  const imported = generateImport([{ crd, source }]);
  const root = '/roundtrip';
  const texts = new Map(imported.files.filter((f) => f.path.endsWith('.ts')).map((f) => [`${root}/${f.path}`, f.content]));
  const { crds, errors } = buildCrds(root, texts, { project, generatorVersion: '0.0.0' });
  return { imported, built: crds[0]?.crd, errors: errors.map((e) => `${e.location?.file}:${e.location?.line}: ${e.message}`) };
}

/** The parts of a CRD the round trip gives back: its spec, versions in name order, and its own annotations and labels. */
export function comparable(crd: CustomResourceDefinition): Record<string, unknown> {
  const { annotations = {}, labels } = crd.metadata;
  const own = Object.fromEntries(Object.entries(annotations).filter(([k]) => k !== 'controller-gen.kubebuilder.io/version' && k !== 'opgen.dev/version'));
  const spec = crd.spec as CustomResourceDefinition['spec'] & Record<string, unknown>;
  // `subresources: {}` says what no subresources says; opgen writes the latter.
  const served = spec.versions
    .filter((v) => v.served)
    .map(({ subresources, ...v }) => (subresources && Object.keys(subresources).length ? { ...v, subresources } : v))
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    metadata: { name: crd.metadata.name, annotations: own, labels: labels ?? {} },
    spec: { ...spec, names: { ...spec.names, listKind: spec.names.listKind ?? `${spec.names.kind}List`, singular: spec.names.singular ?? spec.names.kind.toLowerCase() }, versions: served },
  };
}

/**
 * Every JSON path where `a` and `b` differ, as deep as the difference goes: a key only one
 * side has, or a scalar that differs. `required` lists compare as sets.
 */
export function differences(a: unknown, b: unknown, path = ''): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (Array.isArray(a) && Array.isArray(b)) {
    if (path.endsWith('.required') && isDeepStrictEqual([...a].sort(), [...b].sort())) return [];
    if (a.length !== b.length) return [path];
    return a.flatMap((x, i) => differences(x, b[i], `${path}[${i}]`));
  }
  if (isPlain(a) && isPlain(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => differences(a[k], b[k], path ? `${path}.${k}` : k));
  }
  return [path];
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
