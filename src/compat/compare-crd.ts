import type { CrdVersion, CustomResourceDefinition } from '../crd/types.js';
import { compareSchemas } from './compare-schema.js';
import type { Change } from './rules.js';

/**
 * The changes from the released CRD `before` to the generated `after` of one Kind: its scope,
 * versions (removed, unserved, storage) and, for every version both have, its schema.
 */
export function compareCrds(before: CustomResourceDefinition, after: CustomResourceDefinition): Change[] {
  const kind = after.spec.names.kind;
  const changes: Change[] = [];
  if ((before.spec.scope ?? 'Namespaced') !== after.spec.scope) changes.push({ rule: 'scope-changed', kind, path: '', detail: `scope ${before.spec.scope} → ${after.spec.scope}` });
  const newVersions = new Map(after.spec.versions.map((v) => [v.name, v]));
  const oldStorage = storageOf(before);
  const newStorage = storageOf(after);
  for (const old of before.spec.versions ?? []) {
    const next = newVersions.get(old.name);
    if (!next) {
      changes.push(
        old.name === oldStorage
          ? { rule: 'stored-version-removed', kind, version: old.name, path: '', detail: `storage version ${old.name} removed` }
          : { rule: 'version-removed', kind, version: old.name, path: '', detail: `version ${old.name} removed` },
      );
      continue;
    }
    if (old.served && !next.served) changes.push({ rule: 'version-unserved', kind, version: old.name, path: '', detail: `version ${old.name} no longer served` });
    if (!old.served && next.served) changes.push({ rule: 'version-served', kind, version: old.name, path: '', detail: `version ${old.name} served again` });
    // A released CRD without a schema (hand-written, pre-structural) accepted anything: everything is a tightening then.
    const before = old.schema?.openAPIV3Schema ?? { type: 'object' as const, 'x-kubernetes-preserve-unknown-fields': true };
    for (const found of compareSchemas(before, next.schema.openAPIV3Schema)) changes.push({ ...found, kind, version: old.name });
  }
  const oldNames = new Set((before.spec.versions ?? []).map((v) => v.name));
  for (const version of after.spec.versions) {
    if (!oldNames.has(version.name)) changes.push({ rule: 'version-added', kind, version: version.name, path: '', detail: `version ${version.name} added` });
  }
  if (oldStorage && newStorage && oldStorage !== newStorage && newVersions.has(oldStorage)) {
    changes.push({ rule: 'storage-version-changed', kind, version: newStorage, path: '', detail: `storage version ${oldStorage} → ${newStorage}` });
  }
  return changes;
}

function storageOf(crd: CustomResourceDefinition): string | undefined {
  return (crd.spec.versions ?? []).find((v: CrdVersion) => v.storage)?.name;
}
