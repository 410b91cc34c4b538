import { apiVersionOf, type Kind } from '../api/kind.js';
import { isNotFound } from '../client/errors.js';
import type { ReconcileContext, Reconciler } from '../controller/types.js';
import { ensureFinalizer, hasFinalizer, removeFinalizer } from '../helpers/finalizers.js';
import type { KubeObject } from '../object.js';
import type { KindResolver } from './discovery.js';
import { inventoryOf, refKey } from './inventory.js';
import { RenderError, renderChart } from './render.js';
import { ConditionType, deployedStatus, failedStatus, type ReleaseStatus } from './status.js';
import { releaseValues } from './values.js';
import type { ChartWatch } from './watches.js';

/** operator-sdk's finalizer: a CR carrying it has its release uninstalled before it goes. */
export const UNINSTALL_FINALIZER = 'helm.sdk.operatorframework.io/uninstall-release';
/** On every object of a release: the CR it belongs to, `<Kind>.<group>/<namespace>/<name>`, for dependent watches. */
export const OWNER_ANNOTATION = 'helm.opgen.dev/owner';

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
  const period = watch.reconcilePeriodMs > 0 ? { requeueAfter: watch.reconcilePeriodMs } : undefined;
  return async (request, ctx) => {
    const cr = await ctx.client.get(crKind, request.name, request.namespace);
    if (!cr) return;
    if (cr.metadata?.deletionTimestamp) {
      if (hasFinalizer(cr, UNINSTALL_FINALIZER)) {
        await uninstall(cr, ctx, options.resolveKind);
        await removeFinalizer(ctx.client, crKind, cr, UNINSTALL_FINALIZER);
        ctx.log.info({ release: request.name }, 'release uninstalled');
      }
      return;
    }
    const current = await ensureFinalizer(ctx.client, crKind, cr, UNINSTALL_FINALIZER);
    const previous = current.status ?? {};
    const release = request.name;
    const namespace = request.namespace ?? 'default';
    let next: ReleaseStatus;
    try {
      const rendered = await renderChart({ helm: options.helm, chart: watch.chart, release, namespace, values: releaseValues(current.spec, watch.overrideValues), signal: ctx.signal });
      const owner = { kind: crKind, cr: current, namespace };
      const applied = await applyAll(rendered.objects, owner, ctx, options.resolveKind);
      await prune(inventoryOf(previous.deployedRelease?.manifest), applied, namespace, ctx, options.resolveKind);
      next = deployedStatus(previous, release, rendered.manifest);
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

/** An object the API server refused; its message names the object. */
class ApplyError extends Error {
  override name = 'ApplyError';
}

interface Owner {
  kind: Kind<ChartResource>;
  cr: ChartResource;
  namespace: string;
}

/** Applies each object in helm's install order; returns the keys of what was applied. */
async function applyAll(objects: KubeObject[], owner: Owner, ctx: ReconcileContext, resolveKind: KindResolver): Promise<Set<string>> {
  const applied = new Set<string>();
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
      await ctx.client.apply(kind, { ...object, metadata });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApplyError(`${object.kind} ${namespace ? `${namespace}/` : ''}${object.metadata!.name}: ${(error as Error).message}`);
    }
    applied.add(refKey({ apiVersion: object.apiVersion!, kind: object.kind!, namespace, name: object.metadata!.name! }));
  }
  return applied;
}

/** Deletes the objects of the previous release that this one no longer renders. */
async function prune(previous: KubeObject[], applied: Set<string>, namespace: string, ctx: ReconcileContext, resolveKind: KindResolver): Promise<void> {
  for (const object of previous) {
    const kind = await resolveKindOrSkip(object, ctx, resolveKind);
    if (!kind) continue;
    const ns = kind.namespaced ? (object.metadata!.namespace ?? namespace) : undefined;
    if (applied.has(refKey({ apiVersion: object.apiVersion!, kind: object.kind!, namespace: ns, name: object.metadata!.name! }))) continue;
    await deleteObject(kind, object.metadata!.name!, ns, ctx);
    ctx.log.info({ kind: object.kind, name: object.metadata!.name, namespace: ns }, 'pruned an object the chart no longer renders');
  }
}

/** Deletes every object of the deployed release, last installed first, as helm uninstalls. */
async function uninstall(cr: ChartResource, ctx: ReconcileContext, resolveKind: KindResolver): Promise<void> {
  const namespace = cr.metadata?.namespace ?? 'default';
  for (const object of inventoryOf(cr.status?.deployedRelease?.manifest).reverse()) {
    const kind = await resolveKindOrSkip(object, ctx, resolveKind);
    if (kind) await deleteObject(kind, object.metadata!.name!, kind.namespaced ? (object.metadata!.namespace ?? namespace) : undefined, ctx);
  }
}

/** A kind no longer served has no objects left to delete. */
async function resolveKindOrSkip(object: KubeObject, ctx: ReconcileContext, resolveKind: KindResolver): Promise<Kind<KubeObject> | undefined> {
  try {
    return await resolveKind(object.apiVersion!, object.kind!, ctx.signal);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    ctx.log.info({ kind: object.kind, apiVersion: object.apiVersion }, 'kind no longer served: nothing of it to delete');
    return undefined;
  }
}

async function deleteObject(kind: Kind<KubeObject>, name: string, namespace: string | undefined, ctx: ReconcileContext): Promise<void> {
  try {
    await ctx.client.delete(kind, { metadata: { name, namespace } });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** Writes the status when it changed: an unchanged write would wake this controller again for nothing. */
async function writeStatus(cr: ChartResource, next: ReleaseStatus, crKind: Kind<ChartResource>, ctx: ReconcileContext): Promise<void> {
  if (JSON.stringify(next) === JSON.stringify(cr.status ?? {})) return;
  await ctx.client.patchStatus(crKind, cr, { status: { conditions: next.conditions, deployedRelease: next.deployedRelease } } as never);
}
