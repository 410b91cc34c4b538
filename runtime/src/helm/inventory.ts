import { loadAllYaml } from '@kubernetes/client-node';
import type { KubeObject } from '../object.js';

/** What identifies an object a release rendered. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

/**
 * The objects a deployed release applied (`status.deployedRelease.objects`): the inventory a
 * later reconcile prunes against and an uninstall deletes. A status an earlier operator wrote
 * has the rendered manifest instead; its objects are read from it. Namespaced objects without
 * a namespace are in the CR's, as helm puts them.
 */
export function inventoryOf(release: { objects?: ObjectRef[]; manifest?: string } | undefined): ObjectRef[] {
  if (release?.objects) return release.objects;
  if (!release?.manifest) return [];
  return (loadAllYaml(release.manifest) as unknown[])
    .filter((doc): doc is KubeObject => typeof doc === 'object' && doc !== null && Boolean((doc as KubeObject).metadata?.name))
    .map((object) => ({ apiVersion: object.apiVersion!, kind: object.kind!, ...(object.metadata!.namespace ? { namespace: object.metadata!.namespace } : {}), name: object.metadata!.name! }));
}

/** A key equal for the same object in two renderings (the namespace is filled in later, per kind scope). */
export function refKey(ref: ObjectRef): string {
  return `${ref.apiVersion}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}
