import type { JSONSchemaProps } from '../../schema/types.js';
import type { KubeObject } from '../objects.js';
import type { OwnedCrd } from '../owned.js';
import { bundleFindings } from '../validate/index.js';
import type { ScorecardBundle } from './contents.js';
import { fail, newResult, type CheckResult } from './result.js';

/** olm-bundle-validation: what `opgen bundle validate` finds; its warnings become suggestions. */
export async function bundleValidation(bundle: ScorecardBundle): Promise<CheckResult> {
  const result = newResult('olm-bundle-validation', 'olm');
  for (const finding of await bundleFindings(bundle.dir)) {
    const where = finding.error.location ? `${[finding.error.location.file, finding.error.location.line].filter(Boolean).join(':')}: ` : '';
    if (finding.severity === 'error') fail(result, `${where}${finding.error.message}`);
    else result.suggestions.push(`${where}${finding.error.message}`);
  }
  return result;
}

/**
 * olm-crds-have-validation: every spec and status field an alm-example sets is declared in
 * its CRD version's schema (a field the schema leaves out is pruned by the API server).
 */
export function crdsHaveValidation(bundle: ScorecardBundle): CheckResult {
  const result = newResult('olm-crds-have-validation', 'olm');
  const examples = usableExamples(bundle, result);
  for (const example of examples) {
    const [group, version] = example.apiVersion.split('/');
    const crd = bundle.crds.find((c) => (c.spec as { group?: string; names?: { kind?: string } }).group === group && (c.spec as { names?: { kind?: string } }).names?.kind === example.kind);
    const schema = (crd?.spec as { versions?: { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }[] } | undefined)?.versions?.find(
      (v) => v.name === version,
    )?.schema?.openAPIV3Schema;
    if (!crd) {
      fail(result, `${example.kind} (${example.apiVersion}) has no CRD in the bundle`);
      continue;
    }
    if (!schema) {
      fail(result, `${example.kind} (${example.apiVersion}) has no schema`, `add a schema to ${crd.metadata.name} version ${version}`);
      continue;
    }
    for (const block of ['spec', 'status'] as const) {
      const value = example[block];
      if (typeof value !== 'object' || value === null) continue;
      const declared = schema.properties?.[block];
      if (declared?.['x-kubernetes-preserve-unknown-fields']) continue;
      for (const key of Object.keys(value)) {
        if (!declared?.properties?.[key]) fail(result, `${block}.${key} of ${example.kind} ${example.metadata?.name ?? ''} is not in the CRD's schema`, `declare ${block}.${key} in the ${example.kind} type`);
      }
    }
  }
  return result;
}

/** olm-crds-have-resources: each owned CRD lists the kinds the operator creates for it. */
export function crdsHaveResources(bundle: ScorecardBundle): CheckResult {
  const result = newResult('olm-crds-have-resources', 'olm');
  for (const entry of bundle.owned) {
    if (!Array.isArray(entry.resources) || !entry.resources.length) {
      fail(
        result,
        `owned CRD ${entry.name} (${entry.version}) lists no resources`,
        `list the kinds its controller creates (e.g. {kind: Pod, name: "", version: v1}) under spec.customresourcedefinitions.owned[].resources in the base CSV`,
      );
    }
  }
  return result;
}

/** olm-spec-descriptors: every spec field an alm-example sets has a spec descriptor. */
export function specDescriptors(bundle: ScorecardBundle): CheckResult {
  const result = newResult('olm-spec-descriptors', 'olm');
  for (const example of usableExamples(bundle, result)) {
    const entry = ownedFor(bundle, example, result);
    if (!entry) continue;
    const spec = example.spec;
    if (typeof spec !== 'object' || spec === null) {
      fail(result, `${example.kind} ${example.metadata?.name ?? ''} has no spec`.trimEnd());
      continue;
    }
    const paths = new Set((entry.specDescriptors ?? []).map((d) => d.path));
    for (const key of Object.keys(spec)) {
      if (!paths.has(key)) fail(result, `${key} does not have a spec descriptor (${entry.name})`, `add a spec descriptor for ${key} in the base CSV`);
    }
  }
  return result;
}

/**
 * olm-status-descriptors: an alm-example that shows a status needs status descriptors for
 * its kind; one without a status only earns a suggestion.
 */
export function statusDescriptors(bundle: ScorecardBundle): CheckResult {
  const result = newResult('olm-status-descriptors', 'olm');
  for (const example of usableExamples(bundle, result)) {
    const entry = ownedFor(bundle, example, result);
    if (!entry) continue;
    const status = example.status;
    const hasStatus = typeof status === 'object' && status !== null && Object.keys(status).length > 0;
    if (!hasStatus) {
      result.suggestions.push(`the ${example.kind} example shows no status: objects whose state may differ from their spec should have a status`);
      continue;
    }
    if (!entry.statusDescriptors?.length) fail(result, `${entry.name} does not have a status descriptor`, `add status descriptors for ${entry.kind} in the base CSV`);
    const paths = new Set((entry.statusDescriptors ?? []).map((d) => d.path));
    for (const key of Object.keys(status)) {
      if (entry.statusDescriptors?.length && !paths.has(key)) fail(result, `${key} does not have a status descriptor (${entry.name})`);
    }
  }
  return result;
}

function usableExamples(bundle: ScorecardBundle, result: CheckResult): KubeObject[] {
  if ('error' in bundle.examples) {
    result.state = 'error';
    result.errors.push(bundle.examples.error);
    return [];
  }
  result.log += `loaded ${bundle.examples.length} custom resources from alm-examples\n`;
  return bundle.examples;
}

function ownedFor(bundle: ScorecardBundle, example: KubeObject, result: CheckResult): OwnedCrd | undefined {
  const [group, version] = example.apiVersion.split('/');
  const entry = bundle.owned.find((e) => e.kind === example.kind && e.version === version && e.name.endsWith(`.${group}`));
  if (!entry) fail(result, `no owned CRD for ${example.kind} ${example.metadata?.name ?? ''} (${example.apiVersion})`);
  return entry;
}
