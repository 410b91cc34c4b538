import { deepEqual } from '../helpers/merge-patch.js';

/** One RFC 6902 operation; only the three a diff needs. */
export type PatchOperation = { op: 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The JSON Patch that turns `from` into `to`. Objects are diffed key by key, so a field
 * the handler never touched (including one its type does not declare) is never in the
 * patch; an array that changed is replaced whole, which is always correct for the API
 * server and avoids index arithmetic on concurrent edits.
 */
export function jsonPatch(from: unknown, to: unknown): PatchOperation[] {
  const operations: PatchOperation[] = [];
  diff(from as Json, to as Json, '', operations);
  return operations;
}

function diff(from: Json, to: Json, path: string, out: PatchOperation[]): void {
  if (isObject(from) && isObject(to)) {
    for (const key of Object.keys(from)) {
      if (!(key in to) || to[key] === undefined) out.push({ op: 'remove', path: `${path}/${escape(key)}` });
    }
    for (const [key, value] of Object.entries(to)) {
      if (value === undefined) continue;
      const child = `${path}/${escape(key)}`;
      if (!(key in from) || from[key] === undefined) out.push({ op: 'add', path: child, value });
      else diff(from[key] as Json, value, child, out);
    }
    return;
  }
  if (!deepEqual(from, to)) out.push({ op: 'replace', path, value: to });
}

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// RFC 6901: `~` then `/` are escaped in a path segment.
function escape(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
