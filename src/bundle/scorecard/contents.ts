import type { Csv } from '../base-csv.js';
import type { KubeObject } from '../objects.js';
import type { OwnedCrd } from '../owned.js';
import { loadBundle } from '../validate/load.js';
import { findings } from '../validate/problems.js';

/** What the scorecard's checks read from a bundle. */
export interface ScorecardBundle {
  dir: string;
  csv?: Csv;
  owned: OwnedCrd[];
  crds: KubeObject[];
  /** The CSV's alm-examples, or why they could not be read. */
  examples: KubeObject[] | { error: string };
}

/** Reads the bundle at `dir`; what is wrong with it is olm-bundle-validation's to report. */
export async function readScorecardBundle(dir: string): Promise<ScorecardBundle> {
  const bundle = await loadBundle(dir, findings());
  const csv = bundle.objects.find((o) => o.object.kind === 'ClusterServiceVersion')?.object as unknown as Csv | undefined;
  const crds = bundle.objects.filter((o) => o.object.kind === 'CustomResourceDefinition').map((o) => o.object);
  const owned = ((csv?.spec?.customresourcedefinitions as { owned?: OwnedCrd[] } | undefined)?.owned ?? []).filter((e) => typeof e === 'object' && e !== null);
  return { dir, csv, owned, crds, examples: examplesOf(csv) };
}

function examplesOf(csv: Csv | undefined): ScorecardBundle['examples'] {
  if (!csv) return { error: 'the bundle has no ClusterServiceVersion' };
  const text = csv.metadata?.annotations?.['alm-examples'];
  if (text === undefined) return { error: 'the CSV has no alm-examples annotation' };
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) return { error: 'alm-examples is not a JSON array' };
    return parsed.filter((e): e is KubeObject => typeof e === 'object' && e !== null && 'kind' in e);
  } catch (error) {
    return { error: `alm-examples is not JSON: ${(error as Error).message}` };
  }
}
