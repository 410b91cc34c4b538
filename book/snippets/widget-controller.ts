// The Widget controller of the "Writing controllers" chapter; test/book/ runs it against
// a real control plane.
import {
  controller,
  controllerOf,
  isForbidden,
  kinds,
  requeue,
  terminal,
  type Manager,
  type Reconciled,
  type ReconcileContext,
} from '@opgen/runtime';
import { Widget } from './widget-types.js';

export const FINALIZER = 'web.example.com/cleanup';

/** What every reconcile of a Widget is given besides the Widget. */
type WidgetContext = ReconcileContext<Widget, true>;

/**
 * Where the cleanup of a deleted Widget is recorded: the book's stand-in for an outside
 * system.
 */
export const released = new Set<string>();

// #region rbac
// +kubebuilder:rbac:groups=web.example.com,resources=widgets,verbs=get;list;watch
// +kubebuilder:rbac:groups=web.example.com,resources=widgets,verbs=update;patch
// +kubebuilder:rbac:groups=web.example.com,resources=widgets/status,verbs=update;patch
// +kubebuilder:rbac:groups=web.example.com,resources=widgets/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get;list;watch
// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=create;update;patch;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// #endregion rbac
export function setupWidgetController(mgr: Manager): void {
  // #region builder
  controller(mgr)
    .for(Widget)
    .owns(kinds.ConfigMap, {
      // controller-runtime's IndexField: ConfigMaps by the name of the Widget that
      // controls them.
      indexes: { widget: (cm) => [controllerOf(cm)?.name ?? ''] },
    })
    // #region onError
    .onError((err) => (isForbidden(err) ? requeue.after('10m') : requeue.now()))
    // #endregion onError
    .reconcile(reconcileWidget);
  // #endregion builder
}

// #region reconcile
async function reconcileWidget(widget: Reconciled<Widget, true>, ctx: WidgetContext) {
  if (widget.spec.size > 100) {
    throw terminal(
      new Error(`size ${widget.spec.size} is more than this controller serves`),
    );
  }
  // #region finalize
  return ctx.finalize(FINALIZER, {
    apply: () => applyWidget(widget, ctx),
    cleanup: () => {
      released.add(widget.metadata.name);
    },
  });
  // #endregion finalize
}
// #endregion reconcile

// #region apply
async function applyWidget(widget: Reconciled<Widget, true>, ctx: WidgetContext) {
  // Server-side apply of the child: ctx sets its namespace and controller owner
  // reference.
  const config = await ctx.apply(kinds.ConfigMap, {
    metadata: { name: configMapName(widget) },
    data: { size: String(widget.spec.size) },
  });
  // The ConfigMaps of an earlier size go: found through the index, deleted through ctx.
  for (const stale of await configMapsOf(widget, ctx)) {
    if (stale.metadata.name !== config.metadata.name) await ctx.delete(kinds.ConfigMap, stale);
  }
  // #region events
  const note = `ConfigMap ${config.metadata.name} holds size ${widget.spec.size}`;
  ctx.recorder.event(widget, 'Normal', 'Applied', note);
  // #endregion events
  // #region status
  await ctx.status.apply({ observedSize: widget.spec.size });
  await ctx.status.setCondition({
    type: 'Ready',
    status: 'True',
    reason: 'ConfigMapApplied',
    message: `size ${widget.spec.size}`,
  });
  // #endregion status
  // #region requeue
  // Come back in an hour even if nothing changes, e.g. to check something outside.
  return requeue.after('1h');
  // #endregion requeue
}
// #endregion apply

/** A Widget's ConfigMap is named for its size, so a new size makes a new one. */
export function configMapName(widget: {
  metadata?: { name?: string };
  spec: { size: number };
}) {
  return `${widget.metadata?.name}-size-${widget.spec.size}`;
}

// #region list-index
/** The ConfigMaps a Widget controls, served from the cache through the `widget` index. */
export async function configMapsOf(widget: Reconciled<Widget, true>, ctx: WidgetContext) {
  const { name, namespace } = widget.metadata;
  return ctx.client.list(kinds.ConfigMap, { namespace, index: { widget: name } });
}
// #endregion list-index

// #region read
/**
 * Reads through the context's client: from the cache, read-your-writes, a copy to change.
 */
export async function readOwnerSecret(
  widget: Reconciled<Widget, true>,
  ctx: WidgetContext,
) {
  if (!widget.spec.owner) return undefined;
  const secret = await ctx.client.get(
    kinds.Secret,
    widget.spec.owner,
    widget.metadata.namespace,
  );
  return secret; // undefined when there is none: no NotFound error to check
}
// #endregion read
