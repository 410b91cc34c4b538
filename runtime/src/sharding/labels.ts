import type { DeepReadonly, KubeObject } from '../object.js';

/** The label naming the shard an object of `ring` is assigned to; its informers select it. */
export function shardLabel(ring: string): string {
  return `shard.opgen.dev/${ring}`;
}

/** Set by the sharder on an object moving away: its shard stops, then removes both labels. */
export function drainLabel(ring: string): string {
  return `drain.shard.opgen.dev/${ring}`;
}

/** The label every shard Lease of `ring` carries, so the sharder lists them alone. */
export const RING_LABEL = 'sharding.opgen.dev/ring';

/** The shard Lease of `shard` in `ring`. */
export function shardLeaseName(ring: string, shard: string): string {
  return `${ring}-shard-${shard}`.toLowerCase();
}

/** A ring name is a label name part: the API server rejects anything else in `shardLabel`. */
export function checkRingName(ring: string): void {
  if (!/^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$/.test(ring)) {
    throw new Error(`sharding: ring ${JSON.stringify(ring)} must be lower-case letters, digits and '-', at most 42 characters (it names labels and Leases)`);
  }
}

/**
 * A shard id usable as a label value and in a Lease name: the pod's name (a StatefulSet's
 * `app-0` keeps it across restarts, so a restart moves nothing), lower-cased, anything else
 * replaced by '-'.
 */
export function shardIdOf(name: string): string {
  const id = name.toLowerCase().replace(/[^a-z0-9.-]/g, '-').replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '').slice(0, 63);
  if (!id) throw new Error(`sharding: cannot make a shard id of ${JSON.stringify(name)}: give --shard-id`);
  return id;
}

/**
 * The key of `object`'s controller owner when that owner is of `ownerKind` (the sharded
 * kind), `namespace/name`; undefined when no object of the sharded kind controls it.
 */
export function ownerPlacement(object: DeepReadonly<KubeObject>, ownerKind: string, ownerApiVersion: string): string | undefined {
  const owner = object.metadata?.ownerReferences?.find((ref) => ref.controller === true);
  if (owner && owner.kind === ownerKind && owner.apiVersion === ownerApiVersion) return `${object.metadata?.namespace ?? ''}/${owner.name}`;
  return undefined;
}

/**
 * The key an object is placed by: its controller owner's when the owner is of `ownerKind`
 * (so children land on their owner's shard), else its own `namespace/name`.
 */
export function placementKey(object: DeepReadonly<KubeObject>, ownerKind: string, ownerApiVersion: string): string {
  return ownerPlacement(object, ownerKind, ownerApiVersion) ?? `${object.metadata!.namespace ?? ''}/${object.metadata!.name!}`;
}

/** The Lease whose annotation holds the slot table of `ring` in the server-side mode. */
export function slotsLeaseName(ring: string): string {
  return `${ring}-slots`.toLowerCase();
}
