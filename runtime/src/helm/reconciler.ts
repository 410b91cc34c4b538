import { apiVersionOf, type Kind } from '../api/kind.js';
import { isNotFound } from '../rest/errors.js';
import type { ReconcileContext, Reconciler } from '../controller/types.js';
import { ensureFinalizer, hasFinalizer, removeFinalizer } from '../helpers/finalizers.js';
import type { KubeObject } from '../object.js';
import type { KindResolver } from './discovery.js';
import { parseDuration } from '../helpers/duration.js';
import { applyChecked, deleteChecked } from '../helpers/guarded-writes.js';
import { checkReleaseOwnership, inventoryOf, OWNER_ANNOTATION, refKey, ReleaseOwnershipError, type ObjectRef } from './inventory.js';
import { RenderError, renderChart } from './render.js';
import { ConditionType, deployedDigest, deployedStatus, failedStatus, manifestDigest, type ReleaseStatus } from './status.js';
import { expandEnv, releaseValues } from './values.js';
import type { ChartWatch } from './watches.js';

/** operator-sdk's finalizer: a CR carrying it has its release uninstalled before it goes. */
export const UNINSTALL_FINALIZER = 'helm.sdk.operatorframework.io/uninstall-release';
/** The finalizer older operator-sdk releases put on CRs; honoured the same, never added. */
export const LEGACY_UNINSTALL_FINALIZER = 'uninstall-helm-release';
/** operator-sdk's CR annotations: this CR's reconcile period, and waiting for the release's objects to be gone before the CR goes. */
export const RECONCILE_PERIOD_ANNOTATION = 'helm.sdk.operatorframework.io/reconcile-period';
export const UNINSTALL_WAIT_ANNOTATION = 'helm.sdk.operatorframework.io/uninstall-wait';

/** A CR of a chart-backed kind: its spec is the chart's values. */
export interface ChartResource extends KubeObject {
  spec?: Record<string, unknown>;
  status?: ReleaseStatus;
}

/** What the chart reconciler needs besides the watch. */
export interface ChartReconcilerOptions {
  /** The helm binary; default `$HELM`, else `helm` on the PATH. */
  helm?: string;
  resolveKind: KindResolver;
}

/** The owner annotation's value for a CR of `kind`. */
export function ownerValue(kind: Kind, namespace: string | undefined, name: string): string {
  return `${kind.kind}.${kind.group}/${namespace ?? ''}/${name}`;
}

/**
 * The reconcile of a chart-backed kind: render the chart with the CR's spec as values
 * (overrides win), server-side apply every object, delete what the previous release had
 * and this one does not, and report operator-sdk's conditions and `deployedRelease`.
 * Applying what is already there changes nothing, so running it again is how drift is
 * repaired. A chart that does not render is a state to report, not an error to retry
 * fast: the CR's status says why and the next spec change (or period) tries again.
 */
export function chartReconciler(crKind: Kind<ChartResource>, watch: ChartWatch, options: ChartReconcilerOptions): Reconciler {
  return async (request, ctx) => {
    const cr = await ctx.client.get(crKind, request.name, request.namespace);
    if (!cr) return;
    const finalizers = [UNINSTALL_FINALIZER, LEGACY_UNINSTALL_FINALIZER].filter((f) => hasFinalizer(cr, f));
    if (cr.metadata?.deletionTimestamp) {
      if (finalizers.length === 0) return;
      const remaining = await uninstall(crKind, cr, ctx, options.resolveKind);
      if (remaining > 0 && isTrue(cr.metadata.annotations?.[UNINSTALL_WAIT_ANNOTATION])) {
        ctx.log.info({ remaining }, 'waiting until the release\'s objects are deleted');
        return { requeueAfter: 1_000 };
      }
      let current: ChartResource | undefined = cr;
      for (const finalizer of finalizers) current = current && (await removeFinalizer(ctx.client, crKind, current, finalizer));
      ctx.log.info({ release: request.name }, 'release uninstalled');
      return;
    }
    // A CR an older operator-sdk finalized keeps its finalizer: it is honoured as this one.
    const current = finalizers.length > 0 ? cr : await ensureFinalizer(ctx.client, crKind, cr, UNINSTALL_FINALIZER);
    const previous = current.status ?? {};
    const release = request.name;
    const namespace = request.namespace ?? 'default';
    let next: ReleaseStatus;
    let period: { requeueAfter: number } | undefined;
    try {
      const periodMs = reconcilePeriodOf(current, watch.reconcilePeriodMs);
      period = periodMs > 0 ? { requeueAfter: periodMs } : undefined;
      const rendered = await renderChart({ helm: options.helm, chart: watch.chart, release, namespace, values: releaseValues(current.spec, watch.overrideValues), signal: ctx.signal });
      if (manifestDigest(rendered.manifest) !== deployedDigest(previous.deployedRelease)) {
        // As operator-sdk: say on the CR which of its values the operator's admin pinned.
        for (const [path, value] of Object.entries(watch.overrideValues)) {
          ctx.recorder.event(current, 'Warning', 'OverrideValuesInUse', `Chart value ${JSON.stringify(path)} overridden to ${JSON.stringify(expandEnv(value))} by operator's watches.yaml`);
        }
      }
      const owner = { kind: crKind, cr: current, namespace };
      const applied = await applyAll(rendered.objects, owner, ctx, options.resolveKind);
      await prune(inventoryOf(previous.deployedRelease), new Set(applied.map(refKey)), owner, ctx, options.resolveKind);
      next = deployedStatus(previous, release, rendered.manifest, applied);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      const type = error instanceof RenderError || error instanceof ApplyError ? ConditionType.ReleaseFailed : ConditionType.Irreconcilable;
      ctx.log.error({ err: error }, 'release failed');
      await writeStatus(current, failedStatus(previous, type, (error as Error).message), crKind, ctx);
      // A render failure repeats until the spec or chart changes; anything else may pass on a retry.
      if (error instanceof RenderError) return period;
      throw error;
    }
    await writeStatus(current, next, crKind, ctx);
    return period;
  };
}

/** The CR's reconcile-period annotation (a Go duration) wins over the watch's; a bad one is an error to fix on the CR. */
function reconcilePeriodOf(cr: ChartResource, fallbackMs: number): number {
  const text = cr.metadata?.annotations?.[RECONCILE_PERIOD_ANNOTATION];
  if (text === undefined) return fallbackMs;
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`annotation ${RECONCILE_PERIOD_ANNOTATION}: ${JSON.stringify(text)} is not a duration such as 1m or 30s`);
  return ms;
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value);
}

/** An object the API server refused; its message names the object. */
class ApplyError extends Error {
  override name = 'ApplyError';
}

interface Owner {
  kind: Kind<ChartResource>;
  cr: ChartResource;
  namespace: string;
}

/** Applies each object in helm's install order; returns the references of what was applied. */
async function applyAll(objects: KubeObject[], owner: Owner, ctx: ReconcileContext, resolveKind: KindResolver): Promise<ObjectRef[]> {
  const applied: ObjectRef[] = [];
  const ownerAnnotation = ownerValue(owner.kind, owner.cr.metadata?.namespace, owner.cr.metadata!.name!);
  for (const object of objects) {
    const kind = await resolveKind(object.apiVersion!, object.kind!, ctx.signal);
    const namespace = kind.namespaced ? (object.metadata!.namespace ?? owner.namespace) : undefined;
    const metadata = { ...object.metadata!, namespace, annotations: { ...object.metadata!.annotations, [OWNER_ANNOTATION]: ownerAnnotation } };
    // Objects beside the CR go with it through garbage collection too, should the finalizer be removed by hand.
    if (namespace !== undefined && namespace === owner.cr.metadata?.namespace) {
      Object.assign(metadata, {
        ownerReferences: [
          ...(object.metadata!.ownerReferences ?? []),
          { apiVersion: apiVersionOf(owner.kind), kind: owner.kind.kind, name: owner.cr.metadata!.name!, uid: owner.cr.metadata!.uid!, controller: true, blockOwnerDeletion: true },
        ],
      });
    }
    try {
      await applyChecked(ctx.client, kind, { ...object, metadata }, (live) => checkReleaseOwnership(live, ownerAnnotation));
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApplyError(`${object.kind} ${namespace ? `${namespace}/` : ''}${object.metadata!.name}: ${(error as Error).message}`);
    }
    applied.push({ apiVersion: object.apiVersion!, kind: object.kind!, ...(namespace === undefined ? {} : { namespace }), name: object.metadata!.name! });
  }
  return applied;
}

/** Deletes the objects of the previous release that this one no longer renders. */
async function prune(previous: ObjectRef[], applied: Set<string>, owner: Owner, ctx: ReconcileContext, resolveKind: KindResolver): Promise<void> {
  const ownerAnnotation = ownerValue(owner.kind, owner.cr.metadata?.namespace, owner.cr.metadata!.name!);
  for (const object of previous) {
    const kind = await resolveKindOrSkip(object, ctx, resolveKind);
    if (!kind) continue;
    const ns = kind.namespaced ? (object.namespace ?? owner.namespace) : undefined;
    if (applied.has(refKey({ ...object, namespace: ns }))) continue;
    if (await deleteObject(kind, object.name, ns, ownerAnnotation, ctx)) {
      ctx.log.info({ kind: object.kind, name: object.name, namespace: ns }, 'pruned an object the chart no longer renders');
    }
  }
}

/**
 * Deletes every object of the deployed release, last installed first, as helm uninstalls;
 * returns how many still exist (being deleted), for the uninstall-wait annotation.
 */
async function uninstall(crKind: Kind<ChartResource>, cr: ChartResource, ctx: ReconcileContext, resolveKind: KindResolver): Promise<number> {
  const namespace = cr.metadata?.namespace ?? 'default';
  const ownerAnnotation = ownerValue(crKind, cr.metadata?.namespace, cr.metadata!.name!);
  let remaining = 0;
  for (const object of [...inventoryOf(cr.status?.deployedRelease)].reverse()) {
    const kind = await resolveKindOrSkip(object, ctx, resolveKind);
    if (!kind) continue;
    const ns = kind.namespaced ? (object.namespace ?? namespace) : undefined;
    if (!(await deleteObject(kind, object.name, ns, ownerAnnotation, ctx))) continue;
    if (await ctx.client.uncached().get(kind, object.name, ns)) remaining++;
  }
  return remaining;
}

/** A kind no longer served has no objects left to delete. */
async function resolveKindOrSkip(object: ObjectRef, ctx: ReconcileContext, resolveKind: KindResolver): Promise<Kind<KubeObject> | undefined> {
  try {
    return await resolveKind(object.apiVersion, object.kind, ctx.signal);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    ctx.log.info({ kind: object.kind, apiVersion: object.apiVersion }, 'kind no longer served: nothing of it to delete');
    return undefined;
  }
}

/** Deletes the release's object; false when the object there is not the release's, which stays. */
async function deleteObject(kind: Kind<KubeObject>, name: string, namespace: string | undefined, owner: string, ctx: ReconcileContext): Promise<boolean> {
  try {
    await deleteChecked(ctx.client, kind, { metadata: { name, namespace } }, (live) => checkReleaseOwnership(live, owner));
    return true;
  } catch (error) {
    if (error instanceof ReleaseOwnershipError) {
      ctx.log.info({ reason: error.message }, 'left an object of the release\'s manifest alone: it is not the release\'s');
      return false;
    }
    if (!isNotFound(error)) throw error;
    return true;
  }
}

/** Writes the status when it changed: an unchanged write would wake this controller again for nothing. */
async function writeStatus(cr: ChartResource, next: ReleaseStatus, crKind: Kind<ChartResource>, ctx: ReconcileContext): Promise<void> {
  if (JSON.stringify(next) === JSON.stringify(cr.status ?? {})) return;
  // A manifest an earlier operator reported goes (the merge patch's null): the digest and references replace it.
  const legacy = cr.status?.deployedRelease?.manifest !== undefined && next.deployedRelease?.manifest === undefined;
  const deployedRelease = legacy && next.deployedRelease ? { ...next.deployedRelease, manifest: null } : next.deployedRelease;
  await ctx.client.patchStatus(crKind, cr, { status: { conditions: next.conditions, deployedRelease } } as never);
}
