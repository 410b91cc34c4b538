import { Gauge, type Registry } from 'prom-client';
import type { InformerHealth } from '../cache/types.js';

/** Tells the informer gauges where to read health from, at each scrape. */
export type InformerMetrics = (health: () => InformerHealth[]) => void;

/**
 * `opgen_informer_healthy{kind}` (1 while synced with its watch open) and
 * `opgen_informer_consecutive_failures{kind}`, read from the cache when scraped: an
 * informer that cannot watch shows here and on `/readyz`, never only in the logs.
 */
export function registerInformerMetrics(registry: Registry): InformerMetrics {
  let read: () => InformerHealth[] = () => [];
  new Gauge({
    name: 'opgen_informer_healthy',
    help: 'Whether the informer of a kind has synced and its watch is open (1) or it is failing (0).',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const h of read()) this.set({ kind: h.kind }, h.healthy ? 1 : 0);
    },
  });
  new Gauge({
    name: 'opgen_informer_consecutive_failures',
    help: 'Failed lists or watches of a kind since a watch was last accepted.',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const h of read()) this.set({ kind: h.kind }, h.consecutiveFailures);
    },
  });
  return (health) => {
    read = health;
  };
}
