import { UserErrors, formatUserWarning } from '../../errors.js';
import { checkCrds } from './crds.js';
import { checkCsv } from './csv.js';
import { checkAlmExamples } from './examples.js';
import { checkInstallModes } from './install-modes.js';
import { loadBundle } from './load.js';
import { findings as newFindings, type Finding } from './problems.js';
import { checkStructure } from './structure.js';
import { checkWebhooks } from './webhooks.js';

/**
 * Runs what operator-sdk's default bundle validators check (structure, CSV, install
 * strategy, owned CRDs, alm-examples against their schemas, webhooks, install modes) and
 * returns every finding, each located.
 */
export async function bundleFindings(dir: string): Promise<Finding[]> {
  const findings = newFindings();
  const bundle = await loadBundle(dir, findings);
  checkStructure(bundle, findings);
  const csv = bundle.objects.find((o) => o.object.kind === 'ClusterServiceVersion');
  if (csv) {
    checkCsv(csv, findings);
    checkCrds(csv, bundle.objects, findings);
    checkAlmExamples(csv, bundle.objects, findings);
    checkWebhooks(csv, findings);
    checkInstallModes(csv, findings);
  }
  return findings.list;
}

/**
 * `opgen bundle validate`: prints each warning, fails with every error (one line each), or
 * says the bundle is valid.
 */
export async function validateBundle(dir: string): Promise<void> {
  const found = await bundleFindings(dir);
  for (const f of found.filter((f) => f.severity === 'warning')) process.stderr.write(`${formatUserWarning(f.error)}\n`);
  const errors = found.filter((f) => f.severity === 'error').map((f) => f.error);
  if (errors.length) throw new UserErrors(errors);
  process.stdout.write(`${dir}: the bundle is valid\n`);
}
