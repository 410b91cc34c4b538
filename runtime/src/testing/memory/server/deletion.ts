/**
 * DELETE of an object and of a collection, as `registry.Store.Delete` does it:
 * preconditions, graceful deletion (pods bound to a node), the propagation policy turned
 * into the `orphan` / `foregroundDeletion` finalizers the garbage collector acts on, and
 * an object with finalizers left in place with `deletionTimestamp` set until they are gone.
 */
import { badRequest, conflict, formatValue, invalid, notFound, successStatus, type FieldError } from './errors.js';
import { dryRunErrors } from './request-options.js';
import { onCustomResourceDefinitionDeleted } from './crd-lifecycle.js';
import { admitDelete } from './namespace-lifecycle.js';
import { encodeObject } from './codec.js';
import { groupResource, type ResourceInfo } from './resources.js';
import { commit, liveObject, type Reply, type ServerState, type Target } from './state.js';
import type { Obj } from './storage.js';
import { timestamp } from './strategy.js';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** `metav1.DeleteOptions`, from the body or the query. */
export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

/** Reads DeleteOptions from the query string and the body, the body winning as in the API server. */
export function deleteOptions(query: Record<string, string>, body: unknown): DeleteOptions {
  const options: DeleteOptions = {};
  if (query.propagationPolicy) options.propagationPolicy = query.propagationPolicy as DeleteOptions['propagationPolicy'];
  if (query.gracePeriodSeconds !== undefined) options.gracePeriodSeconds = Number(query.gracePeriodSeconds);
  if (query.orphanDependents !== undefined) options.orphanDependents = query.orphanDependents === 'true';
  if (query.dryRun) options.dryRun = [query.dryRun];
  if (body && typeof body === 'object') Object.assign(options, body as DeleteOptions);
  const policy = options.propagationPolicy;
  const errors: FieldError[] = [];
  if (policy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(policy)) {
    errors.push({ type: 'FieldValueNotSupported', field: 'propagationPolicy', value: formatValue(policy), detail: 'supported values: "Foreground", "Background", "Orphan", "nil"' });
  }
  errors.push(...dryRunErrors(options.dryRun));
  if (errors.length > 0) throw invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errors);
  if (policy !== undefined && options.orphanDependents !== undefined) {
    throw badRequest('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "' + policy + '": orphanDependents and deletionPropagation cannot be both set');
  }
  return options;
}

/** How many seconds a graceful delete waits: only pods bound to a node wait (their kubelet confirms). */
function gracePeriod(info: ResourceInfo, live: Obj, options: DeleteOptions): number {
  if (!(info.group === '' && info.plural === 'pods')) return 0;
  if (!live.spec?.nodeName) return 0;
  return options.gracePeriodSeconds ?? live.spec?.terminationGracePeriodSeconds ?? 30;
}

/** The finalizers after applying the propagation policy (unchanged when the request names none). */
function finalizersFor(live: Obj, options: DeleteOptions): string[] {
  let finalizers: string[] = [...(live.metadata.finalizers ?? [])];
  const policy = options.propagationPolicy ?? (options.orphanDependents === true ? 'Orphan' : options.orphanDependents === false ? 'Background' : undefined);
  if (policy === undefined) return finalizers;
  finalizers = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (policy === 'Orphan') finalizers.push(ORPHAN_FINALIZER);
  if (policy === 'Foreground') finalizers.push(FOREGROUND_FINALIZER);
  return finalizers;
}

/** DELETE of one object. */
export function deleteObject(state: ServerState, target: Target, options: DeleteOptions): Reply {
  const { info, namespace, name } = target;
  const live = liveObject(state, info, namespace, name!);
  if (!live) throw notFound(groupResource(info), name!);
  admitDelete(info, name!);
  const { uid, resourceVersion } = options.preconditions ?? {};
  // The delete's preconditions name the kind, not the resource, in their Conflict.
  const byKind = { group: info.group, resource: info.kind };
  if (uid && uid !== live.metadata.uid) {
    throw conflict(byKind, name!, `the UID in the precondition (${uid}) does not match the UID in record (${live.metadata.uid}). The object might have been deleted and then recreated`);
  }
  if (resourceVersion && resourceVersion !== live.metadata.resourceVersion) {
    throw conflict(byKind, name!, `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${live.metadata.resourceVersion}). The object might have been modified`);
  }
  return removeOrMark(state, info, live, options);
}

/**
 * The body a delete answers with once the object is gone: a Success Status naming it; a Pod
 * (whose storage returns what it deleted) answers itself, marked deleted with no grace.
 */
function goneReply(info: ResourceInfo, object: Obj, nowMs: number): Reply {
  if (info.group === '' && info.plural === 'pods') {
    const pod = visible(info, object);
    if (!pod.metadata.deletionTimestamp) {
      pod.metadata.deletionTimestamp = timestamp(nowMs);
      pod.metadata.deletionGracePeriodSeconds = 0;
      if ((pod.metadata.generation ?? 0) > 0) pod.metadata.generation += 1;
    }
    return { code: 200, body: pod };
  }
  return { code: 200, body: successStatus(groupResource(info), object.metadata.name, object.metadata.uid) };
}

const visible = (info: ResourceInfo, object: Obj): Obj => encodeObject(info, object, 'object');

/**
 * The deletion proper (also used by the garbage collector and the namespace controller):
 * deletes `live` now, or marks it with `deletionTimestamp` when finalizers (or a grace
 * period) hold it.
 */
export function removeOrMark(state: ServerState, info: ResourceInfo, live: Obj, options: DeleteOptions): Reply {
  const dryRun = options.dryRun?.includes('All') ?? false;
  const isNamespace = info.group === '' && info.plural === 'namespaces';
  const finalizers = finalizersFor(live, options);
  const grace = gracePeriod(info, live, options);
  const holdsOn = finalizers.length > 0 || grace > 0 || (isNamespace && (live.spec?.finalizers ?? []).length > 0);
  if (!holdsOn && info.group === '' && info.plural === 'pods' && !live.metadata.deletionTimestamp) {
    // A Pod's deletion is graceful even with no grace: it is marked (deletionTimestamp, grace 0,
    // generation + 1) in one write, then deleted in the next; the answer is the marked Pod.
    const marked = structuredClone(live);
    marked.metadata.deletionTimestamp = timestamp(state.now());
    marked.metadata.deletionGracePeriodSeconds = 0;
    if ((marked.metadata.generation ?? 0) > 0) marked.metadata.generation += 1;
    if (dryRun) return { code: 200, body: visible(info, marked) };
    commit(state, info, 'MODIFIED', marked, live);
    const answer = visible(info, marked);
    commit(state, info, 'DELETED', structuredClone(marked), marked);
    return { code: 200, body: answer };
  }
  if (!holdsOn) {
    const gone = structuredClone(live);
    if (!dryRun) {
      commit(state, info, 'DELETED', gone, live);
      onCustomResourceDefinitionDeleted(state, info, gone);
    }
    return goneReply(info, live, state.now());
  }
  const next = structuredClone(live);
  const meta = next.metadata;
  if (finalizers.length > 0) meta.finalizers = finalizers;
  else delete meta.finalizers;
  const now = state.now();
  if (!meta.deletionTimestamp) {
    meta.deletionTimestamp = timestamp(now + grace * 1000);
    // `BeforeDelete`: an object that tracks generation moves it when its deletion starts.
    if ((meta.generation ?? 0) > 0) meta.generation += 1;
    // A namespace is finalized by its controller, not by a grace period: it gets none.
    if (!isNamespace) meta.deletionGracePeriodSeconds = grace;
  } else if (grace < (meta.deletionGracePeriodSeconds ?? 0)) {
    // A shorter grace period brings the deletion forward, never back.
    meta.deletionTimestamp = timestamp(now + grace * 1000);
    meta.deletionGracePeriodSeconds = grace;
  }
  if (isNamespace) next.status = { ...next.status, phase: 'Terminating' };
  if (grace === 0 && finalizers.length === 0 && !isNamespace) {
    if (!dryRun) commit(state, info, 'DELETED', next, live);
    return goneReply(info, next, state.now());
  }
  if (JSON.stringify(next) !== JSON.stringify(live) && !dryRun) commit(state, info, 'MODIFIED', next, live);
  return { code: 200, body: visible(info, next) };
}
