/**
 * Where a finding in a CRD schema is: the data path users read in `kubectl explain`
 * (`spec.template.containers[*].ports`, the CLI's way to find the marker that made it) and
 * the API server's field path below `openAPIV3Schema` (`properties[spec].items`).
 *
 * @module
 */
import type { FieldError, Json } from './types.js';

/** A schema node's two paths; both are '' at the root. */
export interface Place {
  /** `spec.ports[*]`: `[*]` stands for any item or map value, odd names as `["a.b"]`. */
  data: string;
  /** `properties[spec].properties[ports].items`, as the API server prints it. */
  field: string;
  /** Inside a clause: the way from the structural node at `data` to here (`anyOf[0].properties[a]`). */
  label?: string;
}

/**
 * One thing the API server refuses in a CRD schema: the data path of the schema node it is
 * about, the keyword below that node it names (`type`, `items.properties[name].nullable`,
 * `x-kubernetes-validations[0].message`; '' for the node itself), and the API server's field
 * error, its field relative to `openAPIV3Schema`.
 *
 * @example
 * structuralFindings(schema); // [{ path: 'spec.size', keyword: 'type', error: { type: 'FieldValueRequired', field: 'properties[spec].properties[size].type', detail: 'must not be empty for specified object fields' } }]
 */
export interface SchemaFinding {
  path: string;
  keyword: string;
  error: FieldError;
  /** For a refused default: the default itself (the error may be about a part of it). */
  default?: Json;
}

export const ROOT: Place = { data: '', field: '' };

/** The data path of a named property under `path`. */
export function propertyPath(path: string, name: string): string {
  if (!/^[A-Za-z_$][\w$-]*$/.test(name)) return `${path}[${JSON.stringify(name)}]`;
  return path === '' ? name : `${path}.${name}`;
}

/** The data path of every item (or map value) under `path`, or of item `index`. */
export function itemPath(path: string, index?: number): string {
  return `${path}[${index ?? '*'}]`;
}

/** `field` joined with a child segment, as `field.Path` prints it. */
export function joinField(field: string, child: string): string {
  if (child === '') return field;
  if (field === '') return child;
  return child.startsWith('[') ? `${field}${child}` : `${field}.${child}`;
}

export function propertyPlace(place: Place, name: string): Place {
  if (place.label !== undefined) return clausePlace(place, `properties[${name}]`);
  return { data: propertyPath(place.data, name), field: joinField(place.field, `properties[${name}]`) };
}

export function itemsPlace(place: Place): Place {
  if (place.label !== undefined) return clausePlace(place, 'items');
  return { data: itemPath(place.data), field: joinField(place.field, 'items') };
}

export function additionalPlace(place: Place): Place {
  if (place.label !== undefined) return clausePlace(place, 'additionalProperties');
  return { data: itemPath(place.data), field: joinField(place.field, 'additionalProperties') };
}

/** A place inside a clause (`segment`: `anyOf[0]`, `properties[a]`, `items`): its data path stays its structural node's. */
export function clausePlace(place: Place, segment: string): Place {
  return { data: place.data, field: joinField(place.field, segment), label: joinField(place.label ?? '', segment) };
}

/** A finding at `place`, naming `keyword` below it. */
export function finding(place: Place, keyword: string, error: Omit<FieldError, 'field'>): SchemaFinding {
  return { path: place.data, keyword: joinField(place.label ?? '', keyword), error: { ...error, field: joinField(place.field, keyword) } };
}
