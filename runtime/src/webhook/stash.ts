import type { KubeObject } from '../object.js';

/** The annotation that carries what a spoke version cannot hold. */
export const STASH_ANNOTATION = 'conversion.opgen.dev/stash';

/**
 * On the way down (hub → spoke): keeps `lost`, the hub's values the spoke has no field
 * for, in an annotation of `spoke`, so that the way back up restores them (cluster-api's
 * lossless convention). Nothing is written when every value of `lost` is undefined, so an
 * object that never used a hub-only field reads back exactly as it was written.
 *
 * @example
 * fromHub: (hub) =>
 *   stash(
 *     { apiVersion, kind, metadata: hub.metadata, spec: { size: hub.spec.replicas } },
 *     { tier: hub.spec.tier },
 *   )
 */
export function stash<T extends KubeObject>(spoke: T, lost: Record<string, unknown>): T {
  const kept = Object.fromEntries(Object.entries(lost).filter(([, value]) => value !== undefined));
  if (Object.keys(kept).length === 0) return spoke;
  const metadata = { ...spoke.metadata };
  metadata.annotations = { ...metadata.annotations, [STASH_ANNOTATION]: JSON.stringify(kept) };
  return { ...spoke, metadata };
}

/**
 * On the way up (spoke → hub): the values {@link stash} kept, or `{}`, and `spoke` without
 * the annotation (an `annotations` left empty is removed), so the hub never carries it.
 * A stash that is not valid JSON (edited by hand) is dropped rather than failing every read.
 */
export function unstash<S extends KubeObject, L extends Record<string, unknown>>(spoke: S): { object: S; stashed: Partial<L> } {
  const annotations = spoke.metadata?.annotations;
  const text = annotations?.[STASH_ANNOTATION];
  if (text === undefined) return { object: spoke, stashed: {} };
  const { [STASH_ANNOTATION]: _removed, ...rest } = annotations ?? {};
  const metadata = { ...spoke.metadata };
  if (Object.keys(rest).length > 0) metadata.annotations = rest;
  else delete metadata.annotations;
  let stashed: Partial<L> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) stashed = parsed as Partial<L>;
  } catch {
    stashed = {};
  }
  return { object: { ...spoke, metadata }, stashed };
}
