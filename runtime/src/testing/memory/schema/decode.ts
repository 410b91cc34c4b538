/**
 * Decoding a custom object as apiextensions-apiserver's codec does: unknown fields pruned,
 * then defaults applied.
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
export function decodeCustomObject({ crd, version, object }: DecodeOptions): Decoded {
  const schema = versionSchema(crd, version);
  const copy = structuredClone(object);
  const unknownFields = prune(copy, schema);
  applyDefaults(copy, schema);
  return { object: copy, unknownFields };
}

/**
 * Defaults a copy of an object read from storage, as the API server does on every read: a
 * default added to the schema after the object was stored shows up when it is read.
 *
 * @example
 * const shown = defaultStoredObject({ crd, version: 'v1', object: stored });
 */
export function defaultStoredObject({ crd, version, object }: DecodeOptions): JsonObject {
  const copy = structuredClone(object);
  applyDefaults(copy, versionSchema(crd, version));
  return copy;
}
