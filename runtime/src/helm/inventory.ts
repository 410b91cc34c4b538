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
 * The objects of a release manifest (`status.deployedRelease.manifest`): the inventory a
 * later reconcile prunes against and an uninstall deletes. Namespaced objects without a
 * namespace are in `namespace`, as helm puts them.
 */
export function inventoryOf(manifest: string | undefined): KubeObject[] {
  if (!manifest) return [];
  return (loadAllYaml(manifest) as unknown[]).filter((doc): doc is KubeObject => typeof doc === 'object' && doc !== null && Boolean((doc as KubeObject).metadata?.name));
}

/** A key equal for the same object in two renderings (the namespace is filled in later, per kind scope). */
export function refKey(ref: ObjectRef): string {
  return `${ref.apiVersion}/${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}
