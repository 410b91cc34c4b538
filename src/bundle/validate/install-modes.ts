import { installModeTypes, type Csv } from '../base-csv.js';
import type { BundleObject } from './load.js';
import type { Findings } from './problems.js';

/**
 * OLM's install-mode rules: each of the four modes listed at most once, at least one
 * supported, and an operator with a conversion webhook installable only in AllNamespaces
 * (a CRD is cluster-wide, so its conversion cannot depend on one namespace's operator).
 */
export function checkInstallModes({ object, doc }: BundleObject, findings: Findings): void {
  const spec = (object as unknown as Csv).spec;
  const modes = spec?.installModes;
  if (!Array.isArray(modes) || !modes.length) return findings.error(doc, ['spec'], `spec.installModes is missing: list ${installModeTypes.join(', ')} with supported true or false`);
  const seen = new Set<unknown>();
  modes.forEach((mode: { type?: unknown }, i) => {
    if (seen.has(mode?.type)) findings.error(doc, ['spec', 'installModes', i], `install mode ${String(mode.type)} is listed twice`);
    seen.add(mode?.type);
  });
  const supported = new Set(modes.filter((m: { supported?: unknown }) => m?.supported === true).map((m: { type: string }) => m.type));
  if (!supported.size) findings.error(doc, ['spec', 'installModes'], 'no install mode is supported: OLM could not install the operator anywhere');
  const conversion = Array.isArray(spec.webhookdefinitions) && spec.webhookdefinitions.some((w: { type?: string }) => w?.type === 'ConversionWebhook');
  if (conversion && (!supported.has('AllNamespaces') || supported.size > 1)) {
    findings.error(doc, ['spec', 'installModes'], 'an operator with a conversion webhook must support AllNamespaces and no other install mode');
  }
}
