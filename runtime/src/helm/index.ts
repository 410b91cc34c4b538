/**
 * Chart-backed operators: operator-sdk's helm operator on the opgen runtime. A watches.yaml
 * maps kinds to charts; each CR's spec is its chart's values.
 *
 * @example
 * import { createManager, managerOptionsFromArgs } from '@opgen/runtime';
 * import { watchCharts } from '@opgen/runtime/helm';
 *
 * const mgr = createManager(managerOptionsFromArgs());
 * await watchCharts(mgr, { watchesFile: 'watches.yaml' });
 * await mgr.start();
 *
 * @module
 */
export { watchCharts, type WatchChartsOptions } from './controllers.js';
export { readWatches, parseWatches, type ChartWatch } from './watches.js';
export { chartReconciler, UNINSTALL_FINALIZER, type ChartResource, type ChartReconcilerOptions } from './reconciler.js';
export { OWNER_ANNOTATION, ReleaseOwnershipError } from './inventory.js';
export { renderChart, RenderError, type RenderOptions, type Rendered } from './render.js';
export { releaseValues, type Values } from './values.js';
export type { ReleaseStatus } from './status.js';
export type { LabelSelector } from './selector.js';
