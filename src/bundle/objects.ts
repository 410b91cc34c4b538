import { parseAllDocuments } from 'yaml';

/** A Kubernetes object as kustomize renders it: plain JSON data. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** The objects of a multi-document YAML stream, empty documents left out. */
export function parseObjects(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as unknown)
    .filter((value): value is KubeObject => typeof value === 'object' && value !== null && 'kind' in value);
}

/** The API group of `apiVersion` ('' for the core group). */
export function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** `kind namespace/name`, the way messages name an object. */
export function describeObject(object: KubeObject): string {
  const ns = object.metadata.namespace ? `${object.metadata.namespace}/` : '';
  return `${object.kind} ${ns}${object.metadata.name}`;
}

/** A deep copy with object keys sorted, so that generated YAML does not depend on input order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}
