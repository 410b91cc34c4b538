/**
 * Routes a request to its handler: parses the REST path (`/api/v1/namespaces/ns/pods/x/status`,
 * `/apis/group/version/plural`), checks verb and subresource, and refuses loudly what is
 * not served (405 for a verb the resource does not take, 404 for an unknown resource,
 * 501 naming the subresource or feature the memory cluster lacks).
 */
import type { Readable } from 'node:stream';
import type { HttpRequest } from '../../../rest/transport.js';
import { negotiate } from './codec.js';
import { deleteCollection } from './delete-collection.js';
import { deleteObject, deleteOptions } from './deletion.js';
import { apiGroupList, apiResourceList, apiVersions, version } from './discovery.js';
import { methodNotAllowed, notFound, notImplemented, pathNotFound, StatusError } from './errors.js';
import { create, patch, update } from './pipeline.js';
import { getObject, listObjects } from './reads.js';
import { groupResource } from './resources.js';
import type { Reply, ServerState, Target } from './state.js';
import { openWatch } from './watch.js';

/** The Kubernetes release whose behaviour the memory cluster follows. */
export const SERVED_KUBERNETES_VERSION = '1.36.3';

/** Subresources built-in kinds have that the memory cluster does not serve: asking for one is a loud 501. */
const BUILTIN_SUBRESOURCES = ['scale', 'finalize', 'eviction', 'binding', 'log', 'exec', 'attach', 'portforward', 'proxy', 'ephemeralcontainers', 'resize', 'token', 'approval'];

/** Query values as strings, the way the API server reads them. */
function queryOf(request: HttpRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) out[key] = String(value);
  return out;
}

/** Splits a path into group, version and the rest, or undefined for a non-resource path. */
function parse(path: string): { group: string; version: string; rest: string[] } | undefined {
  const parts = path.split('?')[0]!.split('/').filter((p) => p !== '').map(decodeURIComponent);
  if (parts[0] === 'api' && parts.length >= 2) return { group: '', version: parts[1]!, rest: parts.slice(2) };
  if (parts[0] === 'apis' && parts.length >= 3) return { group: parts[1]!, version: parts[2]!, rest: parts.slice(3) };
  return undefined;
}

/** Resolves the resource path to a target, or throws 404 when nothing is served there. */
function resolve(state: ServerState, group: string, version: string, rest: string[]): Target {
  let namespace: string | undefined;
  let parts = rest;
  if (parts[0] === 'namespaces' && parts.length >= 3) {
    const candidate = state.registry.byPath(group, version, parts[2]!);
    // A cluster-scoped resource under a namespace is no route at all.
    if (candidate && !candidate.namespaced) throw pathNotFound();
    if (candidate?.namespaced) {
      namespace = parts[1];
      parts = parts.slice(2);
    }
  }
  const [plural, name, subresource, ...extra] = parts;
  const info = plural === undefined ? undefined : state.registry.byPath(group, version, plural);
  if (!info || extra.length > 0) throw pathNotFound();
  // A custom resource without /status routes the name with the suffix to the main resource, which finds nothing.
  if (subresource === 'status' && !info.status) throw info.crd ? notFound(groupResource(info), name!) : pathNotFound();
  if (subresource !== undefined && subresource !== 'status') {
    const served = info.crd ? (subresource === 'scale' && info.crd.spec.versions.some((v) => v.name === info.version && v.subresources?.scale)) : BUILTIN_SUBRESOURCES.includes(subresource);
    if (!served) throw pathNotFound();
    throw notImplemented(`the ${subresource} subresource of ${groupResource(info).resource}${info.group ? `.${info.group}` : ''}`);
  }
  return { info, namespace, name, subresource: (subresource ?? '') as '' | 'status' };
}

/** What a request gets: an answer, or an open watch stream. */
export type Outcome = { reply: Reply } | { stream: Readable };

export function route(state: ServerState, request: HttpRequest): Outcome {
  const path = request.path.split('?')[0]!;
  const query = queryOf(request);
  const reply = (body: unknown, code = 200): Outcome => ({ reply: { code, body } });
  if (request.method === 'GET') {
    if (path === '/readyz' || path === '/healthz' || path === '/livez') return reply('ok');
    if (path === '/version') return reply(version(SERVED_KUBERNETES_VERSION));
    if (path === '/api') return reply(apiVersions());
    if (path === '/apis') return reply(apiGroupList(state.registry));
  }
  const parsed = parse(path);
  if (!parsed) throw pathNotFound();
  if (parsed.rest.length === 0) {
    const list = request.method === 'GET' ? apiResourceList(state.registry, parsed.group, parsed.version) : undefined;
    if (!list) throw pathNotFound();
    return reply(list);
  }
  const target = resolve(state, parsed.group, parsed.version, parsed.rest);
  const resourceLabel = groupResource(target.info);
  const isCollection = target.name === undefined;
  switch (request.method) {
    case 'GET': {
      const watching = query.watch === 'true' || query.watch === '1';
      if (watching) {
        if (!isCollection) throw notImplemented('a watch of one object by name in the path (use a fieldSelector on metadata.name)');
        return { stream: openWatch(state, target, query, negotiate(request.accept, false)) };
      }
      if (isCollection) return { reply: listObjects(state, target, query, negotiate(request.accept, true)) };
      return { reply: getObject(state, target, negotiate(request.accept, false)) };
    }
    case 'POST':
      if (!isCollection || target.subresource) throw methodNotAllowed('create', resourceLabel);
      return { reply: create(state, target, request.body, query) };
    case 'PUT':
      if (isCollection) throw methodNotAllowed('update', resourceLabel);
      return { reply: update(state, target, request.body, query) };
    case 'PATCH':
      if (isCollection) throw methodNotAllowed('patch', resourceLabel);
      return { reply: patch(state, target, request.body, request.contentType, query) };
    case 'DELETE':
      if (target.subresource) throw methodNotAllowed('delete', resourceLabel);
      if (isCollection) return { reply: deleteCollection(state, target, query, deleteOptions(query, request.body)) };
      return { reply: deleteObject(state, target, deleteOptions(query, request.body)) };
    default:
      throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `the server does not allow this method on the requested resource`, reason: 'MethodNotAllowed', code: 405 });
  }
}
