import type { ProjectConfig } from './model.js';

/**
 * Whether PROJECT records the plugin `key` under `plugins`, as kubebuilder's PROJECT records
 * the plugins a project was made or edited with.
 *
 * @example
 * hasPlugin(project, 'multicluster.opgen.dev/v1-alpha'); // true after opgen init --multicluster
 */
export function hasPlugin(project: ProjectConfig, key: string): boolean {
  const plugins = project.extra.plugins;
  return typeof plugins === 'object' && plugins !== null && key in plugins;
}
