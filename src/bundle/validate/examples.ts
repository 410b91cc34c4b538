import type { JSONSchemaProps } from '../../schema/types.js';
import { validateValue } from '../../validation/value.js';
import type { Csv } from '../base-csv.js';
import type { OwnedCrd } from '../owned.js';
import type { BundleObject } from './load.js';
import type { Findings } from './problems.js';

interface CrdSpec {
  group: string;
  names: { kind: string };
  versions?: { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }[];
}

/**
 * The CSV's alm-examples: a JSON array whose objects are each of an owned kind and valid
 * against that kind's schema in the bundle, checked as the API server validates a custom
 * resource. An owned kind without an example is a warning (the console's form starts empty).
 */
export function checkAlmExamples(csv: BundleObject, objects: readonly BundleObject[], findings: Findings): void {
  const path = ['metadata', 'annotations', 'alm-examples'];
  const text = (csv.object as unknown as Csv).metadata.annotations?.['alm-examples'];
  const owned = (((csv.object as unknown as Csv).spec?.customresourcedefinitions as { owned?: OwnedCrd[] } | undefined)?.owned ?? []).filter(
    (e) => typeof e === 'object' && e !== null,
  );
  if (text === undefined) {
    if (owned.length) findings.warning(csv.doc, ['metadata'], 'no alm-examples annotation: the console offers no example of the owned kinds');
    return;
  }
  let examples: unknown;
  try {
    examples = JSON.parse(text);
  } catch (error) {
    return findings.error(csv.doc, path, `alm-examples is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(examples)) return findings.error(csv.doc, path, 'alm-examples must be a JSON array of objects');
  const crds = objects.filter((o) => o.object.kind === 'CustomResourceDefinition').map((o) => o.object.spec as CrdSpec);
  const covered = new Set<string>();
  examples.forEach((example: { apiVersion?: string; kind?: string; metadata?: { name?: string } } | null, i) => {
    const label = `alm-examples[${i}]`;
    if (typeof example !== 'object' || example === null || !example.apiVersion || !example.kind) {
      return findings.error(csv.doc, path, `${label} is not an object with apiVersion and kind`);
    }
    const [group, version] = example.apiVersion.split('/');
    const entry = owned.find((e) => e.kind === example.kind && e.version === version && e.name.endsWith(`.${group}`));
    if (!entry) return findings.error(csv.doc, path, `${label} is a ${example.kind} of ${example.apiVersion}, which the CSV does not own`);
    covered.add(`${entry.name}/${entry.version}`);
    const crd = crds.find((c) => c.group === group && c.names?.kind === example.kind);
    const schema = crd?.versions?.find((v) => v.name === version)?.schema?.openAPIV3Schema;
    if (!schema) return;
    const name = example.metadata?.name ? ` ${example.metadata.name}` : '';
    for (const problem of validateValue(schema, example)) {
      findings.error(csv.doc, path, `${label} (${example.kind}${name}) is invalid: ${problem.path || '(root)'}: ${problem.message}`);
    }
  });
  for (const entry of owned) {
    if (!covered.has(`${entry.name}/${entry.version}`)) findings.warning(csv.doc, path, `no alm-example of ${entry.kind} (${entry.version})`);
  }
}
