import { UserError } from '../errors.js';
import { describeObject, type KubeObject } from './objects.js';

/** One service account's rules in the CSV's `permissions` or `clusterPermissions`. */
export interface StrategyPermission {
  serviceAccountName: string;
  rules: unknown[];
}

/** The CSV's `spec.install`: OLM's deployment strategy. */
export interface InstallStrategy {
  strategy: 'deployment';
  spec: {
    deployments: { name: string; label?: Record<string, string>; spec: unknown }[];
    permissions?: StrategyPermission[];
    clusterPermissions?: StrategyPermission[];
  };
}

/** What folding the manager's objects into the install strategy leaves. */
export interface FoldedInstall {
  install: InstallStrategy;
  /** The manager Deployment's name, which webhook definitions point at. */
  deploymentName: string;
  /** The objects the strategy now carries (Deployment, service account, bound roles and bindings). */
  folded: Set<KubeObject>;
}

const managerLabel = ['control-plane', 'controller-manager'] as const;

/**
 * OLM installs the operator from the CSV: the manager Deployment becomes the strategy's
 * deployment, and every Role or ClusterRole bound to the manager's service account becomes
 * its `permissions` (namespaced: a Role, or a ClusterRole a RoleBinding grants) or
 * `clusterPermissions` (a ClusterRole a ClusterRoleBinding grants). OLM then creates the
 * service account, roles and bindings itself, so those objects leave the bundle. Roles bound
 * to nobody (the kinds' admin, editor and viewer roles) stay in it as they are.
 */
export function foldInstall(objects: readonly KubeObject[]): FoldedInstall {
  const deployments = objects.filter((o) => o.kind === 'Deployment' && o.metadata.labels?.[managerLabel[0]] === managerLabel[1]);
  if (deployments.length !== 1) {
    throw new UserError(
      `config/default renders ${deployments.length} Deployments labelled ${managerLabel.join('=')}; a bundle needs exactly one manager`,
      { file: 'config/manager/manager.yaml' },
    );
  }
  const deployment = deployments[0]!;
  const podSpec = (deployment.spec as { template?: { spec?: { serviceAccountName?: string } } }).template?.spec;
  const account = podSpec?.serviceAccountName ?? 'default';
  const folded = new Set<KubeObject>([deployment]);
  for (const o of objects) if (o.kind === 'ServiceAccount' && o.metadata.name === account) folded.add(o);

  const namespaced: unknown[] = [];
  const cluster: unknown[] = [];
  for (const binding of objects.filter((o) => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding')) {
    const subjects = (binding.subjects ?? []) as { kind?: string; name?: string }[];
    if (!subjects.some((s) => s.kind === 'ServiceAccount' && s.name === account)) continue;
    const ref = binding.roleRef as { kind: string; name: string };
    const role = objects.find((o) => o.kind === ref.kind && o.metadata.name === ref.name);
    if (!role) throw new UserError(`${describeObject(binding)} grants ${ref.kind} ${ref.name}, which config/default does not render`);
    const rules = (role.rules ?? []) as unknown[];
    (binding.kind === 'ClusterRoleBinding' ? cluster : namespaced).push(...rules);
    folded.add(binding).add(role);
  }
  const permission = (rules: unknown[]) => (rules.length ? [{ serviceAccountName: account, rules }] : undefined);
  return {
    deploymentName: deployment.metadata.name,
    folded,
    install: {
      strategy: 'deployment',
      spec: {
        deployments: [{ name: deployment.metadata.name, label: deployment.metadata.labels, spec: deployment.spec }],
        permissions: permission(namespaced),
        clusterPermissions: permission(cluster),
      },
    },
  };
}
