import { sortKeys, type KubeObject } from './objects.js';

/** A kind with no sample object: `opgen bundle` names each before writing anything. */
export interface MissingSample {
  kind: string;
  apiVersion: string;
}

/**
 * The CSV's `alm-examples` annotation: each sample of config/samples whose kind the bundle
 * owns, as the JSON array OLM's console pre-fills its "create" form with. A served version
 * with no sample is listed in `missing`.
 */
export function almExamples(samples: readonly KubeObject[], crds: readonly KubeObject[], missing: MissingSample[]): string {
  const examples: KubeObject[] = [];
  for (const crd of crds) {
    const spec = crd.spec as { group: string; names: { kind: string }; versions: { name: string; served?: boolean }[] };
    for (const version of spec.versions.filter((v) => v.served !== false)) {
      const apiVersion = `${spec.group}/${version.name}`;
      const found = samples.filter((s) => s.apiVersion === apiVersion && s.kind === spec.names.kind);
      if (!found.length) missing.push({ kind: spec.names.kind, apiVersion });
      examples.push(...found);
    }
  }
  return JSON.stringify(examples.map((e) => sortKeys(withoutNamespace(e))), null, 2);
}

/** OLM creates the example in the namespace the user picks. */
function withoutNamespace(sample: KubeObject): KubeObject {
  const { namespace: _ignored, ...metadata } = sample.metadata;
  return { ...sample, metadata };
}
