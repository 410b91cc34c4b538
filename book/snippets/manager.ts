// The operator's manager, as src/main.ts sets it up, with the knobs the "Running at
// scale" chapter names; test/book/ runs the Widget controller on exactly this manager.
// #region main
import {
  createManager,
  kinds,
  managerOptionsFromArgs,
  type ManagerOptions,
} from '@opgen/runtime';
import { setupWidgetController } from './widget-controller.js';

/** `src/main.ts` runs `await widgetManager(process.argv.slice(2)).start()`. */
export function widgetManager(argv: readonly string[], overrides: ManagerOptions = {}) {
  // --kube-api-qps, --leader-elect, --metrics-bind-address…
  const options = managerOptionsFromArgs(argv);
  const mgr = createManager({
    ...options,
    leaderElectionId: 'abc123.example.com',
    // #region scale
    // Cache only the metadata of Secrets: their data stays out of the process, and
    // ctx.client.get of a Secret reads it from the API server.
    cacheByKind: [{ kind: kinds.Secret, metadataOnly: true }],
    // One token bucket for every request of the process (the flags set these too).
    qps: options.qps ?? 50,
    burst: options.burst ?? 100,
    // #endregion scale
    ...overrides,
  });
  setupWidgetController(mgr);
  return mgr;
}
// #endregion main
