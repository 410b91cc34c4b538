import { supportedKinds } from '../files.js';
import type { LoadedBundle } from './load.js';
import type { Findings } from './problems.js';

const mediatype = 'operators.operatorframework.io.bundle.mediatype.v1';
const prefix = 'operators.operatorframework.io.bundle.';

/**
 * The registry+v1 layout: the annotations OLM's registry needs (media type, manifests and
 * metadata paths, package, channels, a default channel among them), exactly one CSV, and
 * only kinds OLM knows how to install.
 */
export function checkStructure(bundle: LoadedBundle, findings: Findings): void {
  const a = bundle.annotations;
  if (a) {
    const at = (key: string) => ['annotations', key];
    const want = { [mediatype]: 'registry+v1', [`${prefix}manifests.v1`]: 'manifests/', [`${prefix}metadata.v1`]: 'metadata/' };
    for (const [key, value] of Object.entries(want)) {
      if (a.values[key] !== value) findings.error(a.doc, at(key), `${key} must be ${JSON.stringify(value)}, got ${JSON.stringify(a.values[key] ?? null)}`);
    }
    const pkg = a.values[`${prefix}package.v1`];
    if (typeof pkg !== 'string' || !pkg) findings.error(a.doc, ['annotations'], `${prefix}package.v1 (the package name) is missing`);
    const channels = typeof a.values[`${prefix}channels.v1`] === 'string' ? (a.values[`${prefix}channels.v1`] as string).split(',').map((c) => c.trim()) : [];
    if (!channels.length || channels.some((c) => !c)) findings.error(a.doc, at(`${prefix}channels.v1`), `${prefix}channels.v1 must list the channels, comma-separated`);
    const defaultChannel = a.values[`${prefix}channel.default.v1`];
    if (defaultChannel !== undefined && !channels.includes(String(defaultChannel))) {
      findings.error(a.doc, at(`${prefix}channel.default.v1`), `the default channel ${JSON.stringify(defaultChannel)} is not one of the channels (${channels.join(', ')})`);
    }
  }
  const csvs = bundle.objects.filter((o) => o.object.kind === 'ClusterServiceVersion');
  if (csvs.length === 0) findings.error(`${bundle.dir}/manifests`, [], 'holds no ClusterServiceVersion: a bundle has exactly one');
  for (const extra of csvs.slice(1)) findings.error(extra.doc, ['kind'], `a second ClusterServiceVersion (${extra.object.metadata.name}): a bundle has exactly one`);
  for (const { object, doc } of bundle.objects) {
    if (object.kind !== 'ClusterServiceVersion' && object.kind !== 'CustomResourceDefinition' && !supportedKinds.has(object.kind)) {
      findings.error(doc, ['kind'], `kind ${object.kind} cannot be in a registry+v1 bundle: OLM installs only ${[...supportedKinds].join(', ')} beside the CSV and CRDs`);
    }
  }
}
