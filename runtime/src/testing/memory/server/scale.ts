/**
 * The `/scale` subresource (`autoscaling/v1` Scale) of custom resources that declare it
 * and of Deployments, StatefulSets and ReplicaSets: GET reads the replicas paths, PUT and
 * PATCH write `spec.replicas` through an update of the object (its validation included).
 */
import { conflict, notFound, OPTIMISTIC_LOCK_MESSAGE, badRequest } from './errors.js';
import { jsonPatch, mergePatch } from './patch.js';
import { apiVersionOf, groupResource, type ResourceInfo } from './resources.js';
import { liveObject, type Reply, type ServerState, type Target } from './state.js';
import type { Obj } from './storage.js';

interface ScalePaths {
  spec: string;
  status: string;
  selector?: string;
}

const BUILTIN_SCALE: Record<string, ScalePaths> = {
  'apps/deployments': { spec: '.spec.replicas', status: '.status.replicas', selector: '.spec.selector' },
  'apps/statefulsets': { spec: '.spec.replicas', status: '.status.replicas', selector: '.spec.selector' },
  'apps/replicasets': { spec: '.spec.replicas', status: '.status.replicas', selector: '.spec.selector' },
};

/** The replicas paths of `info`'s scale subresource, or undefined when it has none. */
export function scalePaths(info: ResourceInfo): ScalePaths | undefined {
  if (!info.crd) return BUILTIN_SCALE[`${info.group}/${info.plural}`];
  const scale = info.crd.spec.versions.find((v) => v.name === info.version)?.subresources?.scale as { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string } | undefined;
  if (!scale?.specReplicasPath || !scale.statusReplicasPath) return undefined;
  return { spec: scale.specReplicasPath, status: scale.statusReplicasPath, selector: scale.labelSelectorPath };
}

const parts = (path: string) => path.replace(/^\./, '').split('.');

function read(object: Obj, path: string): unknown {
  let value: unknown = object;
  for (const part of parts(path)) value = value !== null && typeof value === 'object' ? (value as Obj)[part] : undefined;
  return value;
}

function write(object: Obj, path: string, value: unknown): void {
  const keys = parts(path);
  let node = object;
  for (const key of keys.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = {};
    node = node[key];
  }
  node[keys[keys.length - 1]!] = value;
}

/** A built-in selector object as the text Scale shows (`app=d`); a custom resource's selector path holds the text already. */
function selectorText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return undefined;
  const labels = Object.entries(((value as Obj).matchLabels ?? {}) as Record<string, string>).sort(([a], [b]) => a.localeCompare(b));
  return labels.map(([k, v]) => `${k}=${v}`).join(',');
}

/** The Scale of an object. */
export function scaleOf(paths: ScalePaths, object: Obj): Obj {
  const meta = object.metadata;
  const status: Obj = { replicas: read(object, paths.status) ?? 0 };
  const selector = paths.selector ? selectorText(read(object, paths.selector)) : undefined;
  if (selector) status.selector = selector;
  const metadata: Obj = { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp };
  if (!metadata.namespace) delete metadata.namespace;
  return { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata, spec: { replicas: read(object, paths.spec) }, status };
}

export function getScale(state: ServerState, target: Target, paths: ScalePaths): Reply {
  const live = liveObject(state, target.info, target.namespace, target.name!);
  if (!live) throw notFound(groupResource(target.info), target.name!);
  return { code: 200, body: scaleOf(paths, live) };
}

/**
 * PUT or PATCH of the Scale: the new `spec.replicas` goes into the object, which is then
 * updated like any write (`update` is the pipeline's update of the main resource).
 */
export function writeScale(
  state: ServerState,
  target: Target,
  paths: ScalePaths,
  body: unknown,
  patchType: string | undefined,
  update: (object: Obj) => Reply,
): Reply {
  const live = liveObject(state, target.info, target.namespace, target.name!);
  if (!live) throw notFound(groupResource(target.info), target.name!);
  const current = scaleOf(paths, live);
  let scale: Obj;
  if (patchType === undefined) scale = body as Obj;
  else if (patchType === 'application/json-patch+json') scale = jsonPatch(current, body) as Obj;
  else if (patchType === 'application/merge-patch+json' || patchType === 'application/strategic-merge-patch+json') scale = mergePatch(current, body) as Obj;
  else throw badRequest(`patch type ${patchType} is not supported on the scale subresource by the memory cluster`);
  // The handler's `checkName`, as for any write: the Scale must name the object of the URL.
  const meta = scale?.metadata ?? {};
  if (meta.name !== target.name) throw badRequest(`the name of the object (${meta.name ?? ''}) does not match the name on the URL (${target.name})`);
  if (meta.namespace && target.namespace && meta.namespace !== target.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const sent = scale?.metadata?.resourceVersion;
  if (sent && sent !== live.metadata.resourceVersion) throw conflict(groupResource(target.info), target.name!, OPTIMISTIC_LOCK_MESSAGE);
  const next = structuredClone(live);
  next.apiVersion = apiVersionOf(target.info);
  write(next, paths.spec, scale?.spec?.replicas ?? 0);
  const answer = update(next);
  if (answer.code >= 300) return answer;
  return { code: 200, body: scaleOf(paths, answer.body as Obj) };
}
