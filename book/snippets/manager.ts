// The operator's entry point, src/main.ts as `opgen init` scaffolds it, with the knobs the
// "Running at scale" chapter names.
// #region main
import { createManager, kinds, managerOptionsFromArgs } from '@opgen/runtime';
import { setupWidgetController } from './widget-controller.js';

export function startOperator(argv: readonly string[]) {
  const options = managerOptionsFromArgs(argv); // --kube-api-qps, --leader-elect, --metrics-bind-address…
  const mgr = createManager({
    ...options,
    leaderElectionId: 'abc123.example.com',
    // #region scale
    // Keep only the metadata of ConfigMaps: enough for .owns(), a fraction of the memory.
    cacheByKind: [{ kind: kinds.ConfigMap, metadataOnly: true }],
    // One token bucket for every request of the process (the flags set these too).
    qps: options.qps ?? 50,
    burst: options.burst ?? 100,
    // #endregion scale
  });
  setupWidgetController(mgr);
  return mgr.start();
}
// #endregion main
