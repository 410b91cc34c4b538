import type { Kind } from '../api/kind.js';
import type { Client } from '../client/index.js';
import type { Logger } from '../log/index.js';
import type { KubeObject } from '../object.js';
import type { Cluster } from '../rest/cluster.js';
import type { LeaseTiming } from './membership.js';
import type { ShardMetrics } from './metrics.js';

/** What the sharder needs. */
export interface SharderOptions {
  ring: string;
  /** The sharded kinds: the reconciled kind first, then kinds whose objects follow their controller owner of that kind. */
  kinds: readonly Kind<KubeObject>[];
  /** The manager's cluster: the sharder's Lease and watches go through its one transport. */
  cluster: Cluster;
  /** A client without a cache: its label patches must never wait for a cache to show them. */
  client: Client;
  namespace: string;
  timing: LeaseTiming;
  log: Logger;
  metrics: ShardMetrics;
  /** How the ring shards, decided before the sharder runs (see `ShardingOptions.mode`). */
  mode(): 'labels' | 'server';
  /** Label patches in flight at once; default 32. */
  concurrency?: number;
  /** The namespace the manager watches (the sharded objects' and children's); undefined: all. */
  watchNamespace?: string;
  /** This replica's shard id: the start of its identity as the sharder's Lease holder. */
  shard: string;
  /** How long the caches may take to sync before the sharder gives up its Lease; default 120 s. */
  syncTimeoutMs?: number;
  /**
   * Told `undefined` when this replica's sharding is healthy, else why not: it gave up the
   * Lease having stopped working, until it (or another replica) holds it and works again.
   */
  onHealth?(problem: string | undefined): void;
}
