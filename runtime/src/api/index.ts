/**
 * The types that API files (`src/api/<version>/*.ts`) import. `opgen manifests` maps each
 * of these by name to its OpenAPI schema, so they are aliases rather than brands: a value
 * of type `int32` is a plain `number` in code, and an `int32` in the CRD.
 *
 * @example
 * import { defineKind, type Condition, type int32, type ObjectMeta } from '@opgen/runtime/api';
 *
 * export interface WidgetSpec {
 *   replicas: int32;
 * }
 * export interface WidgetStatus {
 *   conditions?: Condition[];
 * }
 * export interface Widget {
 *   metadata?: ObjectMeta;
 *   spec: WidgetSpec;
 *   status?: WidgetStatus;
 * }
 * export const Widget = defineKind<Widget, true>({
 *   group: 'example.com',
 *   version: 'v1',
 *   kind: 'Widget',
 *   plural: 'widgets',
 *   namespaced: true,
 * });
 *
 * @module
 */

export { defineKind, apiVersionOf, type Kind } from './kind.js';
export type * from './meta.js';
export type * from './kubernetes.js';
