/**
 * Sharding: a manager's objects spread over its replicas, each reconciling its own share,
 * coordinated through Kubernetes alone (timebertt/kubernetes-controller-sharding's design).
 *
 * - Membership: one Lease per replica, `<ring>-shard-<id>`, renewed like a leader's.
 * - Placement: rendezvous hashing of the object's `namespace/name`, or of its controller
 *   owner's, so children land with their owner.
 * - Assignment: a sharder (one replica, elected on Lease `<ring>-sharder`) sets the label
 *   `shard.opgen.dev/<ring>=<id>`; each replica's informers of the sharded kinds select
 *   their own label, so its cache holds its share only.
 * - Handover: an object moving off a live shard gets `drain.shard.opgen.dev/<ring>`; that
 *   shard finishes any reconcile of it, removes both labels, and only then is it labelled
 *   for the new shard. A dead shard's objects move once its Lease expires; a replica that
 *   cannot renew its Lease stops first.
 *
 * Turned on by `ManagerOptions.sharding` (flags `--shard-ring`, `--shard-id`); imported as
 * `@opgen/runtime/sharding` for the pieces.
 *
 * @example
 * import { createManager, managerOptionsFromArgs } from '@opgen/runtime/manager';
 *
 * const mgr = createManager({ ...managerOptionsFromArgs(), sharding: { ring: 'widgets', kinds: [Widget] } });
 *
 * @module
 */
export { shardFor } from './ring.js';
export { drainLabel, shardLabel, shardLeaseName, placementKey, RING_LABEL } from './labels.js';
export { nextMove, type Move, type Placement } from './assign.js';
export type { ShardingOptions } from './replica.js';
