import type { Kind } from '../api/kind.js';
import { controller, type Controller } from '../controller/index.js';
import type { Request } from '../controller/request.js';
import type { Manager } from '../manager/types.js';
import type { DeepReadonly, KubeObject } from '../object.js';
import { kindResolver, type KindResolver } from './discovery.js';
import { OWNER_ANNOTATION } from './inventory.js';
import { chartReconciler, ownerValue, type ChartResource } from './reconciler.js';
import { renderChart } from './render.js';
import { templateKinds } from './template-kinds.js';
import { selectorPredicate } from './selector.js';
import { releaseValues } from './values.js';
import { readWatches, type ChartWatch } from './watches.js';

/** Options of {@link watchCharts}. */
export interface WatchChartsOptions {
  /** The watches file (operator-sdk's watches.yaml); charts resolve against its directory. */
  watchesFile?: string;
  /** Watches given directly instead of a file. */
  watches?: ChartWatch[];
  /** The helm binary; default `$HELM`, else `helm` on the PATH. */
  helm?: string;
}

/**
 * Declares one controller per watch on `mgr`, each reconciling its kind's CRs with its
 * chart (see `chartReconciler`): what operator-sdk's helm operator runs, for the same
 * watches.yaml. Call before `mgr.start()`; it asks the API server which kinds the charts
 * render.
 *
 * @example
 * const mgr = createManager(managerOptionsFromArgs());
 * await watchCharts(mgr, { watchesFile: 'watches.yaml' });
 * await mgr.start();
 */
export async function watchCharts(mgr: Manager, options: WatchChartsOptions): Promise<Controller[]> {
  if (!options.watches && !options.watchesFile) throw new Error('watchCharts: give watchesFile or watches');
  const watches = options.watches ?? (await readWatches(options.watchesFile!));
  // A new project's watches.yaml is empty until create api adds a kind: the manager still runs.
  if (watches.length === 0) mgr.log.info({ watchesFile: options.watchesFile }, 'no watches: this operator reconciles nothing yet');
  const resolveKind = kindResolver(mgr.cluster);
  const controllers: Controller[] = [];
  for (const watch of watches) {
    const crKind = (await resolveKind(`${watch.group}/${watch.version}`, watch.kind)) as Kind<ChartResource>;
    const builder = controller(mgr, { name: `${watch.kind.toLowerCase()}-helm`, maxConcurrentReconciles: watch.maxConcurrentReconciles });
    builder.for(crKind, watch.selector ? { predicates: [selectorPredicate(watch.selector)] } : undefined);
    if (watch.watchDependentResources) {
      for (const kind of await dependentKinds(mgr, watch, resolveKind, options.helm)) builder.watches(kind, toOwner(crKind));
    }
    controllers.push(builder.reconcileRequest(chartReconciler(crKind, watch, { helm: options.helm, resolveKind })));
  }
  return controllers;
}

/**
 * The kinds the chart's objects can have, watched so a changed or deleted object is
 * repaired at once: those its templates name literally (also behind conditions the
 * default values leave off) and those it renders with its default values and the
 * overrides. Kinds computed otherwise are repaired on the reconcile period.
 */
async function dependentKinds(mgr: Manager, watch: ChartWatch, resolveKind: KindResolver, helm: string | undefined): Promise<Kind<KubeObject>[]> {
  const pairs = await templateKinds(watch.chart);
  try {
    const { objects } = await renderChart({ helm, chart: watch.chart, release: 'probe', namespace: 'default', values: releaseValues({}, watch.overrideValues) });
    pairs.push(...objects.map((o) => ({ apiVersion: o.apiVersion!, kind: o.kind! })));
  } catch (error) {
    mgr.log.info({ chart: watch.chart, err: error }, 'the chart does not render with its default values: only the kinds its templates name are watched');
  }
  const seen = new Map<string, Kind<KubeObject> | undefined>();
  for (const { apiVersion, kind } of pairs) {
    const key = `${apiVersion}/${kind}`;
    if (seen.has(key)) continue;
    try {
      seen.set(key, await resolveKind(apiVersion, kind));
    } catch (error) {
      // A kind whose CRD is not installed (yet): its objects are repaired on the reconcile period.
      mgr.log.info({ chart: watch.chart, apiVersion, kind, err: error }, 'not watching a kind the API server does not serve');
      seen.set(key, undefined);
    }
  }
  return [...seen.values()].filter((k): k is Kind<KubeObject> => k !== undefined);
}

/** Maps a rendered object to its CR through the owner annotation the reconciler puts on it. */
function toOwner(crKind: Kind): (object: DeepReadonly<KubeObject>) => Request[] {
  const prefix = ownerValue(crKind, '', '').replace(/\/\/$/, '/');
  return (object) => {
    const value = object.metadata?.annotations?.[OWNER_ANNOTATION];
    if (!value?.startsWith(prefix)) return [];
    const [namespace, name] = value.slice(prefix.length).split('/');
    return name ? [{ namespace: namespace || undefined, name } as Request] : [];
  };
}
