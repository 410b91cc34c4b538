import type { AssembledCrd } from '../crd/assemble.js';
import { isShared } from '../schema/shared.js';
import type { GeneratedFile } from '../writer/index.js';
import { generatedHeader, toYaml } from '../yaml.js';

/**
 * `config/crd/bases/<group>_<plural>.yaml` for each CRD, keys sorted like controller-gen's
 * output; shared built-in subtrees (a pod template in every kind) are written once.
 */
export function generateCrds(crds: readonly AssembledCrd[]): GeneratedFile[] {
  return crds.map((crd) => ({
    path: crdPath(crd),
    content: toYaml([crd.crd], { header: generatedHeader, sortKeys: true, reusable: isShared }),
    ownership: 'generated',
  }));
}

/** Where a CRD is written, relative to the project root. */
export function crdPath(crd: Pick<AssembledCrd, 'group' | 'plural'>): string {
  return `config/crd/bases/${crd.group}_${crd.plural}.yaml`;
}
