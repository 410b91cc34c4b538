/**
 * The one place that writes generated files: commands hand it what generators returned.
 *
 * @module
 */
export { planChanges } from './plan.js';
export { applyChanges } from './apply.js';
export { formatPlan } from './report.js';
export { removeEmptyFolders } from './remove-empty-folders.js';
export type { Action, GeneratedFile, PlannedChange } from './types.js';
