import { UserError } from '../errors.js';
import type { Cluster } from './cluster.js';
import { kubectl } from '../kubectl.js';

/**
 * Server-side apply of everything in one kubectl call, as `fieldManager`: no last-applied
 * annotation, so large CRDs fit. kubectl goes on past an object the API server rejects;
 * `onFailure` says what to do then (what was applied, the matching removal finds again,
 * since it builds the same objects).
 */
export function apply(manifests: string, cluster: Cluster, fieldManager: string, onFailure: string): void {
  const force = cluster.forceConflicts ? ['--force-conflicts'] : [];
  const result = kubectl([...cluster.flags, 'apply', '--server-side', `--field-manager=${fieldManager}`, ...force, '--filename=-'], {
    input: manifests,
    inherit: true,
  });
  if (!result.ok) throw new UserError(onFailure);
}

/**
 * Lists the objects of each CRD in `manifests` that the cluster has, which waits until the
 * API server serves them: a CRD deleted sooner, while the storage of its objects still
 * initializes (just after it was created), stays Terminating for minutes, as the API
 * server's cleanup of its objects backs off.
 */
export function awaitServed(manifests: string, cluster: Cluster): void {
  const present = kubectl([...cluster.flags, 'get', '--ignore-not-found', '--output=name', '--filename=-'], { input: manifests });
  for (const line of present.stdout.split('\n')) {
    const [resource, name] = line.split('/');
    if (resource?.startsWith('customresourcedefinition.') && name) {
      kubectl([...cluster.flags, 'get', name, '--all-namespaces', '--output=name', '--request-timeout=60s']);
    }
  }
}

/** Deletes every object of `manifests` the cluster has, waiting until each is gone. */
export function remove(manifests: string, cluster: Cluster): void {
  const result = kubectl([...cluster.flags, 'delete', '--ignore-not-found', '--filename=-'], { input: manifests, inherit: true });
  if (!result.ok) throw new UserError('kubectl delete failed (above): run it again once the cause is fixed');
}
