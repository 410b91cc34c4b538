import { loadAllYaml } from '@kubernetes/client-node';
import type { DeepReadonly, KubeObject } from '../object.js';

/** On every object of a release: the CR it belongs to, `<Kind>.<group>/<namespace>/<name>`, for dependent watches and ownership. */
export const OWNER_ANNOTATION = 'helm.opgen.dev/owner';

/** An object a release would write or delete is there and belongs to no release of this CR. */
export class ReleaseOwnershipError extends Error {
  override readonly name = 'ReleaseOwnershipError';
}

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

/**
 * Helm's ownership rule ("invalid ownership metadata"): a release writes or deletes an
 * existing object only when it made it, i.e. the object carries the owner annotation of
 * `owner` (see {@link OWNER_ANNOTATION}). Anything else, with another CR's annotation or
 * none, is someone else's: refused with a {@link ReleaseOwnershipError}. To hand an object
 * over to a release, annotate it by hand, as Helm asks.
 */
export function checkReleaseOwnership(live: DeepReadonly<KubeObject> | undefined, owner: string): void {
  if (!live) return;
  const found = live.metadata?.annotations?.[OWNER_ANNOTATION];
  if (found === owner) return;
  const where = live.metadata?.namespace ? `${live.metadata.namespace}/${live.metadata.name}` : live.metadata?.name;
  const because = found === undefined ? `it has no annotation ${OWNER_ANNOTATION}` : `its annotation ${OWNER_ANNOTATION} is ${JSON.stringify(found)}`;
  throw new ReleaseOwnershipError(`${live.kind ?? 'object'} ${where} exists and is not this release's: invalid ownership metadata (${because}, not ${JSON.stringify(owner)})`);
}
