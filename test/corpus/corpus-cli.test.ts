import { describe, expect, it } from 'vitest';
import { checkCelTypes } from '@opgen/runtime/internal/cel';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { checkCelRule } from '../../src/validation/cel.js';
import { checkDefaults, checkStructural } from '../../src/validation/structural.js';
import { corpusCrds, projects } from './corpus.js';

/**
 * `opgen manifests`' checks of a CRD (structural schema, defaults, CEL syntax, CEL types and
 * cost) on the CRDs of widely used projects, which kube-apiserver 1.36.3 accepts (the
 * differential corpus test creates them): not one may be refused.
 */
const crds = corpusCrds();

function problems(schema: JSONSchemaProps): string[] {
  const found = [...checkStructural(schema), ...checkDefaults(schema)].map((p) => `${p.path}: ${p.message}`);
  const rules = (node: JSONSchemaProps): void => {
    for (const v of node['x-kubernetes-validations'] ?? []) {
      for (const expression of [v.rule, v.messageExpression]) {
        const problem = expression === undefined ? undefined : checkCelRule(expression);
        if (problem) found.push(`${JSON.stringify(expression)}: ${problem.message}`);
      }
    }
    for (const child of [...Object.values(node.properties ?? {}), node.items, typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined]) if (child && !Array.isArray(child)) rules(child);
  };
  rules(schema);
  if (found.length === 0) found.push(...checkCelTypes(schema).map((p) => `${p.path}: ${p.field} ${JSON.stringify(p.rule.rule)}: ${p.message}`));
  return found;
}

describe('the real-world corpus through opgen manifests’ checks', () => {
  it('holds CRDs of several projects', () => {
    expect(projects.length).toBeGreaterThanOrEqual(12);
    expect(crds.length).toBeGreaterThan(80);
  });

  it.each(crds.map((c) => [`${c.project}/${c.file}`, c] as const))('accepts %s', (_, { doc }) => {
    const spec = doc.spec as { versions: Array<{ name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }> };
    const refused = spec.versions.flatMap((v) => (v.schema?.openAPIV3Schema ? problems(v.schema.openAPIV3Schema).map((p) => `${v.name}: ${p}`) : []));
    expect(refused).toEqual([]);
  });
});
