/**
 * Finding a served version's schema in a CRD.
 *
 * @module
 */
import type { CrdLike, SchemaNode } from './types.js';

/** The `openAPIV3Schema` of `version`; throws when the CRD has no such version (a caller's mistake). */
export function versionSchema(crd: CrdLike, version: string): SchemaNode {
  const found = crd.spec.versions.find((v) => v.name === version);
  if (!found) throw new Error(`CustomResourceDefinition ${crd.metadata?.name ?? crd.spec.names.plural} has no version ${version}`);
  return found.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
}
