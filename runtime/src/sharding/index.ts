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
 * - Server-side mode (`ShardingOptions.mode`, `auto` by default): where the API server serves
 *   shard selectors (feature gate `ShardedListAndWatch`, KEP-5866, alpha in 1.36; detected by
 *   `metadata.shardInfo` in the answer to a list with one, see `servesShardSelectors`), no
 *   label is written. The hash space of `metadata.uid` (64-bit FNV-1a, the API server's) is
 *   cut into 64 slots; the sharder keeps a table of slot holders (Lease `<ring>-slots`), each
 *   replica's informer of the reconciled kind selects `shardRange(object.metadata.uid, …)` of
 *   its slots, and its gate admits only objects in them. Handover by acknowledged
 *   generations: a slot leaving a live replica is first marked released in generation g; the
 *   replica stops admitting it, waits for its running reconciles of it, and writes g on its
 *   own Lease; only then, or after its Lease expired, is the slot given to another replica in
 *   a later generation. So two replicas never reconcile one object at once, whatever the
 *   delays in seeing the table (`nextTable`). Given up: the API server hashes only
 *   `metadata.uid` or `metadata.namespace`, never an owner reference, so children cannot
 *   follow their owner; owned kinds are cached whole on every replica in this mode.
 *
 * Turned on by `ManagerOptions.sharding` (flags `--shard-ring`, `--shard-id`); imported as
 * `@opgen/runtime/sharding` for the pieces.
 *
 * @example
 * import { createManager, managerOptionsFromArgs } from '@opgen/runtime/manager';
 *
 * const mgr = createManager({
 *   ...managerOptionsFromArgs(),
 *   sharding: { ring: 'widgets', kinds: [Widget] },
 * });
 *
 * @module
 */
export { shardFor } from './ring.js';
export { drainLabel, shardLabel, shardLeaseName, placementKey, RING_LABEL } from './labels.js';
export { nextMove, type Move, type Placement } from './assign.js';
export type { ShardingOptions } from './replica.js';
export { servesShardSelectors } from './detect.js';
export { shardSelectorFor, slotOf, SLOTS } from './slots.js';
export { nextTable, type SlotTable, type SlotEntry } from './slot-table.js';
