export { createManager } from './manager.js';
export type { Manager, Runnable, RunnableOptions } from './types.js';
export { managerOptionsFromArgs } from './args.js';
export { loadKubeConfig } from './kubeconfig.js';
export type { ManagerOptions } from './options.js';
export type { Check } from './probes.js';
