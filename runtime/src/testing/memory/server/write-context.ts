/** What the write pipeline tells its hooks (hooks.ts) about a request. */
import type { ResourceInfo } from './resources.js';
import type { Obj } from './storage.js';

export type Operation = 'CREATE' | 'UPDATE';

/**
 * Where a custom object being decoded came from, besides a request body: a server-side
 * apply's result, or a JSON or merge patch's (`patched`, the patched object as JSON, which
 * a Strict refusal of unknown fields quotes).
 */
export type DecodedFrom = { applied: true } | { patched: unknown };

/** What every hook is told about the request. */
export interface WriteContext {
  resource: ResourceInfo;
  operation: Operation;
  /** `''` for the main resource, `'status'` for `/status`, `'scale'` for a write of `/scale` (an update of the main resource's replicas). */
  subresource: '' | 'status' | 'scale';
  /** The stored object an update or patch starts from; undefined on create. */
  live: Obj | undefined;
  /** The request's `fieldManager` query parameter, if given. */
  fieldManager: string | undefined;
  /** The request's `fieldValidation` (`Strict`, `Warn`, `Ignore`); undefined: the default (`Warn`). */
  fieldValidation: string | undefined;
  /** Warnings to send back (`Warning` headers), e.g. unknown fields dropped under `Warn`. */
  warnings: string[];
  nowMs: number;
}
