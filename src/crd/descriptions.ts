import { ownChildren } from '../schema/shared.js';
import type { JSONSchemaProps } from '../schema/types.js';

/**
 * Shortens every description in a schema to at most `max` characters, at the end of a
 * sentence when there is one in reach, else at a word boundary; `0` removes them.
 */
export function limitDescriptions(schema: JSONSchemaProps, max: number): void {
  if (schema.description !== undefined) {
    if (max === 0) delete schema.description;
    else schema.description = shorten(schema.description, max);
  }
  ownChildren(schema);
  for (const child of Object.values(schema.properties ?? {})) limitDescriptions(child, max);
  if (schema.items) limitDescriptions(schema.items, max);
  if (typeof schema.additionalProperties === 'object') limitDescriptions(schema.additionalProperties, max);
}

/** `text` cut to at most `max` characters (see {@link limitDescriptions}). */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  let sentence = -1;
  for (const m of head.matchAll(/[.!?](?=\s|$)/g)) sentence = m.index;
  if (sentence > 0) return head.slice(0, sentence + 1);
  const space = head.search(/\s\S*$/);
  return (space > 0 ? head.slice(0, space) : head).trimEnd();
}
