/**
 * The OpenAPI v3 documents of the served memory cluster, as far as kubectl needs them: the
 * root (`/openapi/v3`, one entry per group-version) and per group-version the write paths
 * with their `x-kubernetes-group-version-kind` and query parameters, from which kubectl
 * learns that the server validates fields itself (`fieldValidation`) instead of
 * downloading schemas to validate on its side. A custom resource's schema is included
 * (its CRD's `openAPIV3Schema`), so `kubectl explain` reads it; built-in kinds have none.
 */
import type { Registry } from './server/registry.js';
import type { ResourceInfo } from './server/resources.js';

/** The parameters every write path takes; their presence is what kubectl checks. */
const WRITE_PARAMETERS = ['dryRun', 'fieldManager', 'fieldValidation', 'force', 'pretty'].map((name) => ({ name, in: 'query', schema: { type: name === 'force' ? 'boolean' : 'string' } }));

const groupVersionPath = (group: string, version: string) => (group === '' ? `api/${version}` : `apis/${group}/${version}`);

/** The answer to a GET under `/openapi/v3`, or undefined for a path with nothing served. */
export function openApiDocument(registry: Registry, path: string): unknown {
  const resources = registry.all();
  if (path === '/openapi/v3' || path === '/openapi/v3/') {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const info of resources) {
      const key = groupVersionPath(info.group, info.version);
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}` };
    }
    return { paths };
  }
  const served = resources.filter((info) => `/openapi/v3/${groupVersionPath(info.group, info.version)}` === path);
  if (served.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const info of served) {
    const gvk = { group: info.group, version: info.version, kind: info.kind };
    const base = `/${groupVersionPath(info.group, info.version)}${info.namespaced ? '/namespaces/{namespace}' : ''}/${info.plural}`;
    const operation = (verb: string) => ({ operationId: `${verb}${info.kind}`, 'x-kubernetes-action': verb, 'x-kubernetes-group-version-kind': gvk, parameters: WRITE_PARAMETERS, responses: {} });
    paths[base] = { post: operation('post') };
    paths[`${base}/{name}`] = { put: operation('put'), patch: operation('patch') };
    const schema = crdSchema(info);
    if (schema) schemas[schemaName(info)] = { ...schema, 'x-kubernetes-group-version-kind': [gvk] };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'memory' }, paths, components: { schemas } };
}

/** The name kube-apiserver gives a custom resource's schema: the group reversed, version, kind. */
function schemaName(info: ResourceInfo): string {
  return [...info.group.split('.').reverse(), info.version, info.kind].join('.');
}

function crdSchema(info: ResourceInfo): Record<string, unknown> | undefined {
  const version = info.crd?.spec.versions.find((v) => v.name === info.version) as { schema?: { openAPIV3Schema?: Record<string, unknown> } } | undefined;
  return version?.schema?.openAPIV3Schema;
}
