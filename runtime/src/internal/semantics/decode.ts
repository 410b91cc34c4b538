/**
 * Decoding a custom object as apiextensions-apiserver's codec does: unknown fields pruned,
 * then defaults applied: on request bodies, and on every object read from storage, in the
 * version it is read in (the server's `encodeObject`).
 *
 * @module
 */
import { applyDefaults } from './defaults.js';
import { prune } from './prune.js';
import type { CrdLike, JsonObject } from './types.js';
import { versionSchema } from './versions.js';

export interface DecodeOptions {
  crd: CrdLike;
  /** The version the object is written in (its apiVersion's version). */
  version: string;
  /** The request body (or the result of a patch); not modified. */
  object: JsonObject;
  /**
   * The result of a server-side apply: the field manager defaults it, and nothing drops a
   * null it holds (the codec's pruning of non-nullable nulls runs on decoded bodies only), so
   * validation refuses the null.
   */
  applied?: boolean;
}

export interface Decoded {
  object: JsonObject;
  /** Paths of the fields pruned (`spec.typo`), for `fieldValidation` Warn and Strict. */
  unknownFields: string[];
}

/**
 * Prunes and defaults a copy of `object`.
 *
 * @example
 * const { object, unknownFields } = decodeCustomObject({ crd, version: 'v1', object: body });
 */
export function decodeCustomObject({ crd, version, object, applied = false }: DecodeOptions): Decoded {
  const schema = versionSchema(crd, version);
  const copy = structuredClone(object);
  const unknownFields = prune(copy, schema);
  applyDefaults(copy, schema, !applied);
  return { object: copy, unknownFields };
}

/**
 * A copy of `object` pruned by `version`'s schema, without defaults: the form a custom object
 * is stored in, its storage version's (a field only the request's version has is not kept).
 *
 * @example
 * const stored = pruneCustomObject({ crd, version: 'v1alpha1', object: written });
 */
export function pruneCustomObject({ crd, version, object }: DecodeOptions): JsonObject {
  const copy = structuredClone(object);
  prune(copy, versionSchema(crd, version));
  return copy;
}
