import { UserError } from '../../errors.js';
import { basicCheckSpec, type ClusterTarget } from './basic.js';
import { readScorecardBundle } from './contents.js';
import { bundleValidation, crdsHaveResources, crdsHaveValidation, specDescriptors, statusDescriptors } from './olm.js';
import type { CheckResult } from './result.js';

/** operator-sdk's basic and OLM checks, in its order. */
export const checkNames = [
  'basic-check-spec',
  'olm-bundle-validation',
  'olm-crds-have-validation',
  'olm-crds-have-resources',
  'olm-spec-descriptors',
  'olm-status-descriptors',
] as const;

/**
 * Runs the checks `selector` picks (operator-sdk's label selector: `suite=olm`,
 * `test=olm-spec-descriptors-test`, or a check's name) against the bundle at `dir`; only
 * basic-check-spec talks to the cluster.
 */
export async function runScorecard(dir: string, cluster: ClusterTarget, selector?: string): Promise<CheckResult[]> {
  const selected = checkNames.filter((name) => selects(selector, name));
  if (!selected.length) throw new UserError(`--selector ${selector} selects no check (checks: ${checkNames.join(', ')}; suites: basic, olm)`);
  const bundle = await readScorecardBundle(dir);
  const results: CheckResult[] = [];
  for (const name of selected) {
    switch (name) {
      case 'basic-check-spec':
        results.push(basicCheckSpec(bundle, cluster));
        break;
      case 'olm-bundle-validation':
        results.push(await bundleValidation(bundle));
        break;
      case 'olm-crds-have-validation':
        results.push(crdsHaveValidation(bundle));
        break;
      case 'olm-crds-have-resources':
        results.push(crdsHaveResources(bundle));
        break;
      case 'olm-spec-descriptors':
        results.push(specDescriptors(bundle));
        break;
      case 'olm-status-descriptors':
        results.push(statusDescriptors(bundle));
        break;
    }
  }
  return results;
}

function selects(selector: string | undefined, name: string): boolean {
  if (!selector) return true;
  const [key, value] = selector.includes('=') ? selector.split('=', 2) : ['test', selector];
  if (key === 'suite') return name.split('-')[0] === value;
  if (key === 'test') return value === name || value === `${name}-test`;
  return false;
}
