import type { JSONSchemaProps } from '../../schema/types.js';
import { checkStructural } from '../../validation/structural.js';
import type { Csv } from '../base-csv.js';
import type { OwnedCrd } from '../owned.js';
import type { BundleObject } from './load.js';
import type { Findings } from './problems.js';

interface CrdSpec {
  group?: string;
  names?: { kind?: string };
  versions?: { name: string; served?: boolean; schema?: { openAPIV3Schema?: JSONSchemaProps } }[];
}

/**
 * Owned CRDs and CRD files agree: every kind the CSV owns is a CRD of the bundle with that
 * version and kind, and every CRD of the bundle is owned (OLM would install it without
 * knowing whose it is). Each CRD is apiextensions.k8s.io/v1 with a structural schema.
 */
export function checkCrds(csv: BundleObject, objects: readonly BundleObject[], findings: Findings): void {
  const crds = objects.filter((o) => o.object.kind === 'CustomResourceDefinition');
  const spec = (csv.object as unknown as Csv).spec;
  const owned = ((spec.customresourcedefinitions as { owned?: OwnedCrd[] } | undefined)?.owned ?? []).filter((e) => typeof e === 'object' && e !== null);
  owned.forEach((entry, i) => {
    const path = ['spec', 'customresourcedefinitions', 'owned', i];
    const crd = crds.find((c) => c.object.metadata.name === entry.name);
    if (!crd) return findings.error(csv.doc, path, `owned CRD ${entry.name} is not in the bundle`);
    const crdSpec = crd.object.spec as CrdSpec;
    if (!crdSpec.versions?.some((v) => v.name === entry.version)) findings.error(csv.doc, path, `owned CRD ${entry.name} has no version ${entry.version}`);
    if (crdSpec.names?.kind !== entry.kind) findings.error(csv.doc, path, `owned CRD ${entry.name} is kind ${crdSpec.names?.kind}, not ${entry.kind}`);
    if (!entry.displayName) findings.warning(csv.doc, path, `owned CRD ${entry.name} (${entry.version}) has no displayName`);
    if (!entry.description) findings.warning(csv.doc, path, `owned CRD ${entry.name} (${entry.version}) has no description`);
  });
  for (const crd of crds) {
    const name = crd.object.metadata.name;
    if (!owned.some((e) => e.name === name)) findings.error(crd.doc, ['metadata', 'name'], `CRD ${name} is in the bundle but not owned by the CSV (spec.customresourcedefinitions.owned)`);
    if (crd.object.apiVersion !== 'apiextensions.k8s.io/v1') {
      findings.error(crd.doc, ['apiVersion'], `CRD ${name} is ${crd.object.apiVersion}; Kubernetes serves only apiextensions.k8s.io/v1`);
      continue;
    }
    const crdSpec = crd.object.spec as CrdSpec;
    (crdSpec.versions ?? []).forEach((version, i) => {
      const schema = version.schema?.openAPIV3Schema;
      const path = ['spec', 'versions', i, 'schema', 'openAPIV3Schema'];
      if (!schema) return findings.error(crd.doc, ['spec', 'versions', i], `CRD ${name} version ${version.name} has no schema`);
      for (const problem of checkStructural(schema)) findings.error(crd.doc, path, `CRD ${name} version ${version.name}: ${problem.path || '(root)'}: ${problem.message}`);
    });
  }
}
