import type { Marker } from '../markers/parse.js';
import type { JSONSchemaProps } from './types.js';

/**
 * A value a marker wrote into a schema that must hold against the finished schema: a
 * `default` or `example` must be a valid value of its field, a CEL rule must compile. The
 * walk only records them; validation checks them once the walk is done, so that the schema
 * model is built in one direction and checked in one place.
 */
export type MarkerCheck =
  | { kind: 'value'; keyword: 'default' | 'example'; node: JSONSchemaProps; value: unknown; marker: Marker }
  | { kind: 'cel'; field: 'rule' | 'messageExpression'; expression: string; marker: Marker };
