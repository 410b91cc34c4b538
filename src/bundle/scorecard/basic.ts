import { kubectl, kubectlError } from '../../kubectl.js';
import type { ScorecardBundle } from './contents.js';
import { fail, newResult, type CheckResult } from './result.js';

/** Which cluster and namespace the basic check creates the examples in. */
export interface ClusterTarget {
  /** kubectl's --kubeconfig/--context flags. */
  flags: string[];
  namespace?: string;
}

/**
 * basic-check-spec: each alm-example, created on the cluster, has a spec. The create is a
 * server-side dry run: the API server validates, defaults and prunes the object (and calls
 * the admission webhooks) exactly as for a real create, but stores nothing, so the check
 * leaves no object behind and cannot collide with one of the same name. Field validation is
 * kubectl's strict default: a field the schema does not declare is an error, as it is for
 * `kubectl create`. The spec is read from what the server returned.
 */
export function basicCheckSpec(bundle: ScorecardBundle, cluster: ClusterTarget): CheckResult {
  const result = newResult('basic-check-spec', 'basic');
  if ('error' in bundle.examples) {
    result.state = 'error';
    result.errors.push(bundle.examples.error);
    return result;
  }
  if (!bundle.examples.length) fail(result, 'the CSV has no alm-examples to create', 'add a sample of each kind to config/samples and run opgen bundle');
  const namespace = cluster.namespace ? [`--namespace=${cluster.namespace}`] : [];
  for (const example of bundle.examples) {
    const label = `${example.kind} ${example.metadata?.name ?? ''}`.trimEnd();
    const created = kubectl([...cluster.flags, ...namespace, 'create', '--dry-run=server', '--output=json', '--filename=-'], { input: JSON.stringify(example) });
    if (!created.ok) {
      const reason = kubectlError(created.stderr);
      const unserved = /ensure CRDs are installed|no matches for kind|could not find the requested resource/.test(reason);
      fail(result, `creating ${label} failed: ${reason}`, unserved ? `install the bundle's CRDs first (opgen install)` : undefined);
      continue;
    }
    const spec = (JSON.parse(created.stdout) as { spec?: unknown }).spec;
    if (typeof spec !== 'object' || spec === null || !Object.keys(spec).length) fail(result, `${label} has no spec once created`, 'give the sample a spec its schema declares');
    else result.log += `${label}: created (server dry run) with a spec\n`;
  }
  return result;
}
