import { checkCsvShape, type Csv } from '../base-csv.js';
import type { BundleObject } from './load.js';
import type { Findings } from './problems.js';

const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

interface DeploymentSpec {
  name?: unknown;
  spec?: { selector?: unknown; template?: { spec?: { containers?: unknown[]; serviceAccountName?: string } } };
}

/**
 * The CSV itself: its shape, a DNS name, a semantic version, the fields OperatorHub shows,
 * and a deployment install strategy whose deployments and permissions OLM can create.
 */
export function checkCsv({ object, doc }: BundleObject, findings: Findings): void {
  for (const problem of checkCsvShape(doc)) findings.list.push({ severity: 'error', error: problem });
  const csv = object as unknown as Csv;
  if (typeof csv.spec !== 'object' || csv.spec === null) return;
  const name = csv.metadata.name ?? '';
  // OLM also puts the name in a label, whose values stop at 63 characters.
  if (name.length > 63 || !dnsSubdomain.test(name)) findings.error(doc, ['metadata', 'name'], `metadata.name ${JSON.stringify(name)} must be a DNS subdomain of at most 63 characters (lower-case, digits, '-' and '.')`);
  const version = csv.spec.version;
  if (typeof version !== 'string' || !semver.test(version)) findings.error(doc, ['spec', 'version'], `spec.version ${JSON.stringify(version ?? null)} is not a semantic version`);
  for (const field of ['displayName', 'description', 'provider', 'maintainers'] as const) {
    if (!csv.spec[field]) findings.warning(doc, ['spec'], `spec.${field} is empty: OperatorHub and the OLM console show it`);
  }
  const minKube = csv.spec.minKubeVersion;
  if (!minKube) findings.warning(doc, ['spec'], 'spec.minKubeVersion is not set: OLM would install the operator on any Kubernetes version');
  else if (typeof minKube !== 'string' || !semver.test(minKube)) findings.error(doc, ['spec', 'minKubeVersion'], `spec.minKubeVersion ${JSON.stringify(minKube)} is not a semantic version (such as 1.33.0)`);
  const replaces = csv.spec.replaces;
  if (typeof replaces === 'string' && replaces && (replaces.length > 63 || !dnsSubdomain.test(replaces))) {
    findings.error(doc, ['spec', 'replaces'], `spec.replaces ${JSON.stringify(replaces)} must be the name of a CSV (a DNS subdomain of at most 63 characters)`);
  }

  const install = csv.spec.install as { strategy?: unknown; spec?: { deployments?: unknown; permissions?: unknown; clusterPermissions?: unknown } } | undefined;
  if (!install) return findings.error(doc, ['spec'], 'spec.install is missing: OLM installs the operator from its deployments');
  if (install.strategy !== 'deployment') findings.error(doc, ['spec', 'install', 'strategy'], `spec.install.strategy must be "deployment", got ${JSON.stringify(install.strategy ?? null)}`);
  const deployments = install.spec?.deployments;
  if (!Array.isArray(deployments) || !deployments.length) {
    return findings.error(doc, ['spec', 'install', 'spec', 'deployments'], 'spec.install.spec.deployments is empty: OLM has nothing to run');
  }
  const accounts = new Set<string>();
  deployments.forEach((d: DeploymentSpec, i) => {
    const path = ['spec', 'install', 'spec', 'deployments', i];
    if (typeof d.name !== 'string' || !dnsSubdomain.test(d.name)) findings.error(doc, path, `deployments[${i}].name must be a DNS subdomain`);
    if (!d.spec?.selector) findings.error(doc, path, `deployments[${i}].spec.selector is missing`);
    if (!d.spec?.template?.spec?.containers?.length) findings.error(doc, path, `deployments[${i}].spec.template has no containers`);
    accounts.add(d.spec?.template?.spec?.serviceAccountName ?? 'default');
  });
  for (const key of ['permissions', 'clusterPermissions'] as const) {
    const list = install.spec?.[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      findings.error(doc, ['spec', 'install', 'spec', key], `spec.install.spec.${key} must be a list of {serviceAccountName, rules}`);
      continue;
    }
    list.forEach((p: { serviceAccountName?: unknown; rules?: unknown }, i) => {
      const path = ['spec', 'install', 'spec', key, i];
      if (typeof p.serviceAccountName !== 'string' || !p.serviceAccountName) findings.error(doc, path, `${key}[${i}].serviceAccountName is missing`);
      else if (!accounts.has(p.serviceAccountName)) findings.warning(doc, path, `${key}[${i}] is for service account ${p.serviceAccountName}, which no deployment runs as`);
      if (!Array.isArray(p.rules)) findings.error(doc, path, `${key}[${i}].rules must be a list of policy rules`);
    });
  }
}
