import { Lease } from '../client/kinds.js';
import { resourcePath } from '../rest/paths.js';
import type { Transport } from '../rest/transport.js';
import { shardSelectorFor, SLOTS } from './slots.js';

/**
 * Whether the API server serves shard selectors (feature gate `ShardedListAndWatch`,
 * KEP-5866): a list of Leases in `namespace`, limit 1, with a selector of the whole hash
 * space. Measured on kube-apiserver 1.36.3: with the gate, the answer's `metadata.shardInfo`
 * echoes the selector; without it, the parameter is ignored (no `shardInfo`, HTTP 200).
 * Leases, a built-in kind, because the API server leaves `shardInfo` out of custom
 * resources' and metadata-only lists even where it filters them.
 *
 * @example
 * const mode = (await servesShardSelectors(cluster.transport, 'operators')) ? 'server' : 'labels';
 */
export async function servesShardSelectors(transport: Transport, namespace: string, signal?: AbortSignal): Promise<boolean> {
  const selector = shardSelectorFor(Array.from({ length: SLOTS }, (_, slot) => slot));
  const list = await transport.request<{ metadata?: { shardInfo?: { selector?: string } } }>({
    method: 'GET',
    path: resourcePath(Lease, namespace),
    query: { limit: 1, shardSelector: selector },
    signal,
  });
  return typeof list.metadata?.shardInfo?.selector === 'string';
}
