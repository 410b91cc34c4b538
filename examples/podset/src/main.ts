/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { createManager, managerOptionsFromArgs } from '@opgen/runtime';
import { setupPodSetController } from './controllers/podset_controller.js';

// The manager's flags are kubebuilder's: --metrics-bind-address, --metrics-secure (HTTPS with
// the API server checking each scraper's token; on by default), --metrics-cert-path,
// --health-probe-bind-address, --leader-elect, --leader-election-id,
// --leader-election-namespace, plus --namespace, --kubeconfig, --log-format and --log-level.
// --shard-ring=<name> spreads the objects over every replica, each reconciling its own share
// (label-based sharding on Leases; --shard-id names the replica, by default its pod's name),
// instead of one elected replica doing all the work. --shard-mode=auto (the default) uses the
// API server's shard selectors where it serves them (feature gate ShardedListAndWatch), else
// labels; --shard-mode=labels or =server chooses.
const options = managerOptionsFromArgs(process.argv.slice(2));

const mgr = createManager({
  ...options,
  // The Lease the replicas compete for when started with --leader-elect (--leader-election-id
  // renames it). It lives in the pod's namespace; out of the cluster, in
  // LEADER_ELECTION_NAMESPACE (else `default`): config/rbac lets the manager's service account
  // hold Leases in its own namespace only.
  leaderElectionId: options.leaderElectionId ?? '065d7839.example.com',
  leaderElectionNamespace: options.leaderElectionNamespace ?? process.env.LEADER_ELECTION_NAMESPACE,
});

setupPodSetController(mgr);
// opgen:scaffold:controllers (opgen create api registers each new controller above this line)

try {
  await mgr.start();
} catch (error) {
  // A lost lease, a failed cache sync or a shutdown past its deadline: log it as JSON like
  // every other line, and exit non-zero so the pod restarts.
  mgr.log.error({ err: error }, 'problem running manager');
  process.exit(1);
}
