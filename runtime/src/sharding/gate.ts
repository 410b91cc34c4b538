import type { Kind } from '../api/kind.js';
import type { Cache, Cached } from '../cache/index.js';
import type { Client } from '../client/index.js';
import type { ShardGate } from '../controller/types.js';
import type { Logger } from '../log/index.js';
import type { KubeObject } from '../object.js';
import { isConflict, isNotFound } from '../rest/errors.js';
import { drainLabel, shardLabel } from './labels.js';
import type { ShardMetrics } from './metrics.js';


export interface GateOptions {
  ring: string;
  shard: string;
  /** The ring's kinds, the reconciled one first; empty until {@link ShardGate.claim} fills it. */
  kinds: Kind<KubeObject>[];
  /** Called once the kinds are known, before any informer of them is created. */
  onKinds(kinds: readonly Kind<KubeObject>[]): void;
  cache: Cache;
  /** A client without a cache: the object is about to leave this shard's cache. */
  client: Client;
  log: Logger;
  metrics: ShardMetrics;
}

/**
 * The shard's gate: an object is reconciled while this shard holds it. One marked for
 * draining is handed back instead (both labels removed): as this runs in the worker that
 * holds the object's key, no reconcile of it is in flight here then and none starts after,
 * and the sharder assigns the new shard only once the labels are gone.
 */
export function createShardGate(o: GateOptions): ShardGate {
  const S = shardLabel(o.ring);
  const D = drainLabel(o.ring);
  const id = (k: Kind) => `${k.group}/${k.kind}`;
  const covers = (kind: Kind) => o.kinds.some((k) => id(k) === id(kind));

  /** Removes both labels, conditional on this shard still holding it and draining. */
  const handBack = async (kind: Kind<KubeObject>, seen: Cached<KubeObject>): Promise<void> => {
    let object: Cached<KubeObject> | undefined = seen;
    for (let attempt = 0; object && attempt < 5; attempt++) {
      const labels = object.metadata.labels ?? {};
      if (labels[S] !== o.shard || !(D in labels)) return;
      try {
        await o.client.patch(kind, object, { metadata: { resourceVersion: object.metadata.resourceVersion, labels: { [S]: null, [D]: null } } } as never);
        o.metrics.drained();
        o.log.debug({ namespace: object.metadata.namespace, name: object.metadata.name }, 'Handed the object over');
        return;
      } catch (error) {
        if (isNotFound(error)) return;
        if (!isConflict(error)) throw error;
        object = (await o.client.get(kind, object.metadata.name, object.metadata.namespace)) as Cached<KubeObject> | undefined;
      }
    }
  };

  return {
    release: () => {},
    claim: (forKind, owned) => claimKinds(o, forKind, owned),
    handsOver: (event) => event.type === 'update' && D in (event.object.metadata?.labels ?? {}) && !(D in (event.oldObject?.metadata?.labels ?? {})),
    async admit(kind, request) {
      if (!covers(kind)) return true;
      const object = o.cache.informerFor(kind as Kind<KubeObject>).get(request.name, request.namespace);
      // Not in this shard's cache: gone, or moved to another shard.
      if (!object) return false;
      const labels = object.metadata.labels ?? {};
      if (labels[S] !== o.shard) return false;
      if (D in labels) {
        await handBack(kind as Kind<KubeObject>, object);
        return false;
      }
      return true;
    },
  };
}

/**
 * A controller's claim on the ring ({@link ShardGate.claim}): the first controller's `for`
 * and owned kinds become the ring's kinds when none were given; a controller of another
 * kind is refused.
 */
export function claimKinds(o: Pick<GateOptions, 'ring' | 'kinds' | 'onKinds'>, forKind: Kind, owned: readonly Kind[]): void {
  const id = (k: Kind) => `${k.group}/${k.kind}`;
  if (o.kinds.length === 0) {
    o.kinds.push(forKind as Kind<KubeObject>, ...(owned.filter((k) => id(k) !== id(forKind)) as Kind<KubeObject>[]));
    o.onKinds(o.kinds);
  }
  if (id(o.kinds[0]!) !== id(forKind)) {
    throw new Error(`sharding: ring "${o.ring}" shards ${o.kinds[0]!.kind} objects; a controller of ${forKind.kind} would reconcile every ${forKind.kind} on every replica`);
  }
}
