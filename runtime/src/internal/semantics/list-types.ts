/**
 * `x-kubernetes-list-type` uniqueness, checked by the API server after the OpenAPI
 * validation: a `set` holds no value twice, a `map` no two items with the same keys. The
 * second occurrence is the one reported, once per value: `spec.tags[1]: Duplicate value: "a"`.
 *
 * @module
 */
import { forEachChild, goValue } from './paths.js';
import { deepEqual, isObject, type FieldError, type Json, type SchemaNode } from './types.js';

/**
 * Duplicate items in the `set` and `map` lists of `value`.
 *
 * @example
 * validateListTypes(object, schema); // [{ type: 'FieldValueDuplicate', field: 'spec.tags[1]', value: '"a"' }]
 */
export function validateListTypes(value: Json, schema: SchemaNode | undefined, path = ''): FieldError[] {
  const errors: FieldError[] = [];
  walk(value, schema, path, errors);
  return errors;
}

function walk(value: Json, schema: SchemaNode | undefined, path: string, errors: FieldError[]): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    const listType = schema['x-kubernetes-list-type'];
    if (listType === 'set') duplicates(value, (item) => item, path, 'set', errors);
    if (listType === 'map') {
      const keys = schema['x-kubernetes-list-map-keys'] ?? [];
      value.forEach((item, i) => {
        if (!isObject(item)) errors.push({ type: 'FieldValueInvalid', field: `${path}[${i}]`, value: goValue(item), detail: 'must be an object for an array of list-type map', check: { keyword: 'x-kubernetes-list-type', limit: 'map', actual: item } });
      });
      // An item that is no object has no key: it is reported above, and never a duplicate.
      const key = (item: Json, i: number): Json => (isObject(item) ? Object.fromEntries([...keys].sort().filter((k) => k in item).map((k) => [k, item[k]!])) : { '<no object>': i });
      duplicates(value, key, path, 'map', errors);
    }
  }
  forEachChild(value, schema, path, (child, childSchema, at) => walk(child, childSchema, at, errors));
}

/** Each value or key repeated is reported once, at its second occurrence (kube-apiserver 1.36.3; the fuzz run found it). */
function duplicates(items: Json[], identity: (item: Json, index: number) => Json, path: string, listType: 'set' | 'map', errors: FieldError[]): void {
  const seen: Json[] = [];
  const reported: Json[] = [];
  items.forEach((item, i) => {
    const id = identity(item, i);
    if (!seen.some((other) => deepEqual(other, id))) seen.push(id);
    else if (!reported.some((other) => deepEqual(other, id))) {
      reported.push(id);
      errors.push({ type: 'FieldValueDuplicate', field: `${path}[${i}]`, value: goValue(id), check: { keyword: 'x-kubernetes-list-type', limit: listType, actual: id } });
    }
  });
}
