import type { JSONSchemaProps } from './types.js';

/**
 * Built-in schemas (a pod template in every kind) are shared between the fields that use
 * them instead of copied, and are deeply frozen so that sharing is safe: a change to a
 * shared node throws instead of leaking into every other user. Because a frozen node can
 * never change, whatever is derived from it alone (its structural check, its key-sorted
 * form, its YAML text) may be computed once and reused.
 */
export function isShared(value: object): boolean {
  return Object.isFrozen(value);
}

/**
 * Makes `schema`'s child schemas its own shallow copies where they are shared, for a pass
 * that changes every node below `schema` (dropping or shortening descriptions). `schema`
 * itself must be the caller's own.
 */
export function ownChildren(schema: JSONSchemaProps): void {
  if (schema.properties && isShared(schema.properties)) schema.properties = { ...schema.properties };
  if (schema.properties) {
    for (const [name, child] of Object.entries(schema.properties)) if (isShared(child)) schema.properties[name] = { ...child };
  }
  if (schema.items && isShared(schema.items)) schema.items = { ...schema.items };
  if (typeof schema.additionalProperties === 'object' && isShared(schema.additionalProperties)) {
    schema.additionalProperties = { ...schema.additionalProperties };
  }
}
