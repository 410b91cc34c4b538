import type { EventsStep, PauseStep, Ref, RequestStep, SettleStep, WatchStep } from './scenario.js';

/**
 * Short spellings of steps, so a scenario reads as the requests it makes. Paths and
 * bodies may hold `{ns}` (see scenario.ts).
 */

export const MERGE = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC = 'application/strategic-merge-patch+json';
export const APPLY = 'application/apply-patch+yaml';

type Query = Record<string, string | number | boolean | Ref>;

export const CONFIGMAPS = '/api/v1/namespaces/{ns}/configmaps';
export const SECRETS = '/api/v1/namespaces/{ns}/secrets';
export const PODS = '/api/v1/namespaces/{ns}/pods';
export const SERVICES = '/api/v1/namespaces/{ns}/services';
export const DEPLOYMENTS = '/apis/apps/v1/namespaces/{ns}/deployments';
export const NAMESPACES = '/api/v1/namespaces';

export function get(path: string, query?: Query, name?: string): RequestStep {
  return { method: 'GET', path, ...(query && { query }), ...(name && { name }) };
}

export function create(path: string, body: unknown, name?: string, query?: Query): RequestStep {
  return { method: 'POST', path, body, ...(name && { name }), ...(query && { query }) };
}

export function update(path: string, body: unknown, name?: string, query?: Query): RequestStep {
  return { method: 'PUT', path, body, ...(name && { name }), ...(query && { query }) };
}

export function patch(path: string, contentType: string, body: unknown, name?: string, query?: Query): RequestStep {
  return { method: 'PATCH', path, contentType, body, ...(name && { name }), ...(query && { query }) };
}

/** A server-side apply as `manager`; `force` takes fields from other managers. */
export function apply(path: string, manager: string, body: unknown, options: { force?: boolean; name?: string } = {}): RequestStep {
  const query: Query = { fieldManager: manager };
  if (options.force) query.force = true;
  return { method: 'PATCH', path, contentType: APPLY, body, query, ...(options.name && { name: options.name }) };
}

export function remove(path: string, body?: unknown, query?: Query, name?: string): RequestStep {
  return { method: 'DELETE', path, ...(body !== undefined && { body }), ...(query && { query }), ...(name && { name }) };
}

export function watch(name: string, path: string, query?: Query): WatchStep {
  return { op: 'watch', name, path, ...(query && { query }) };
}

export function events(watchName: string, count: number, keepOpen = false): EventsStep {
  return { op: 'events', watch: watchName, count, ...(keepOpen && { keepOpen }) };
}

export function settleGone(path: string, timeoutMs?: number): SettleStep {
  return { op: 'settle', path, until: 'gone', ...(timeoutMs && { timeoutMs }) };
}

export function settleField(path: string, field: string, equals: unknown): SettleStep {
  return { op: 'settle', path, until: { field, equals } };
}

/** See {@link PauseStep}: enough for the garbage collector's informers on a loaded machine. */
export const GC_SEES_DEPENDENTS: PauseStep = { op: 'pause', ms: 2_000 };

export function settleExists(path: string, field: string, exists = true): SettleStep {
  return { op: 'settle', path, until: { field, exists } };
}

/** A ConfigMap named `name` with `data`, and `metadata` merged in. */
export function configMap(name: string, data: Record<string, string> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...metadata }, data };
}

/** A Widget (the suite's own CRD, see crds.ts) named `name` with `spec`. */
export function widget(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'diff.opgen.dev/v1', kind: 'Widget', metadata: { name, ...metadata }, spec };
}

/** A Pod running busybox, as the PodSet example creates them. */
export function pod(name: string, metadata: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...metadata },
    spec: { containers: [{ name: 'busybox', image: 'busybox', command: ['sleep', '3600'] }], ...spec },
  };
}

/** An owner reference to the object a named step returned. */
export function ownerRef(step: string, apiVersion: string, kind: string, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion, kind, name, uid: { $ref: step, path: 'metadata.uid' }, ...extra };
}
