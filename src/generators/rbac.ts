import { UserError, UserErrors } from '../errors.js';
import type { RbacMarker } from '../markers/types.js';
import type { GeneratedFile } from '../writer/index.js';
import { generatedHeader, toYaml } from '../yaml.js';
import { clusterScopedBuiltins, resourceVerbs, urlVerbs } from './rbac/known.js';
import { normalizeRules, type Rule } from './rbac/rules.js';

export interface RbacOptions {
  /** Name of the role markers without `roleName=` go into; `manager-role` by default. */
  roleName?: string;
  /**
   * The project's operator watches only its own namespace: markers without `namespace=`
   * go into a Role in `system` (the namespace kustomize renames), never a ClusterRole.
   */
  namespaced?: boolean;
  /** The project's cluster-scoped CRDs as `group/plural`, which no Role can grant either. */
  clusterScoped?: readonly string[];
}

const rbacApiVersion = 'rbac.authorization.k8s.io/v1';
/** The namespace config/ deploys into before kustomize renames it. */
const defaultNamespace = 'system';

/**
 * `config/rbac/role.yaml` from the `+kubebuilder:rbac` markers, as controller-gen writes
 * it: the ClusterRole `manager-role` for markers without a namespace, then one Role per
 * namespace (and per `roleName`), rules merged, deduplicated and sorted, `core` written as
 * `""`, and a rule with `*` among its verbs reduced to `*`. Without markers the default
 * role is written with no rules, so that removing the last marker also removes its
 * permissions.
 *
 * @throws UserErrors for rules the API server would reject (no resources and no URLs,
 *   resources without API groups, URLs beside resources or in a namespaced Role, upper-case
 *   or unknown verbs, cluster-scoped resources in a Role), each at its marker.
 */
export function generateRbac(markers: readonly RbacMarker[], options: RbacOptions = {}): GeneratedFile[] {
  const defaultRole = options.roleName ?? 'manager-role';
  const defaultRoleNamespace = options.namespaced ? defaultNamespace : '';
  const clusterScoped = new Set([...clusterScopedBuiltins, ...(options.clusterScoped ?? [])]);
  const errors = markers.flatMap((marker) => problems(marker, marker.namespace ?? defaultRoleNamespace, clusterScoped));
  if (errors.length) throw new UserErrors(errors);

  const roles = new Map<string, { namespace: string; name: string; rules: Rule[] }>();
  for (const marker of markers) {
    const namespace = marker.namespace ?? defaultRoleNamespace;
    const name = marker.roleName ?? defaultRole;
    const key = JSON.stringify([namespace, name]);
    const role = roles.get(key) ?? { namespace, name, rules: [] };
    role.rules.push({
      groups: marker.groups ?? [],
      resources: marker.resources ?? [],
      resourceNames: marker.resourceNames ?? [],
      urls: marker.urls ?? [],
      verbs: marker.verbs,
    });
    roles.set(key, role);
  }

  // Without markers the default role still exists, empty: config/rbac binds it.
  if (roles.size === 0) roles.set('', { namespace: defaultRoleNamespace, name: defaultRole, rules: [] });
  const documents = [...roles.values()]
    .sort((a, b) => (a.namespace === b.namespace ? compare(a.name, b.name) : compare(a.namespace, b.namespace)))
    .map((role) => ({
      apiVersion: rbacApiVersion,
      kind: role.namespace ? 'Role' : 'ClusterRole',
      metadata: role.namespace ? { name: role.name, namespace: role.namespace } : { name: role.name },
      rules: normalizeRules(role.rules).map(policyRule),
    }));
  return [{ path: 'config/rbac/role.yaml', content: toYaml(documents, { header: generatedHeader }), ownership: 'generated' }];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A PolicyRule with its fields in the order controller-gen writes them; empty lists left out. */
function policyRule(rule: Rule): Record<string, string[]> {
  const fields: [string, string[]][] = [
    ['apiGroups', rule.groups],
    ['nonResourceURLs', rule.urls],
    ['resourceNames', rule.resourceNames],
    ['resources', rule.resources],
    ['verbs', rule.verbs],
  ];
  return Object.fromEntries(fields.filter(([, values]) => values.length > 0));
}

function problems(marker: RbacMarker, namespace: string, clusterScoped: ReadonlySet<string>): UserError[] {
  const at = (message: string, hint?: string) => new UserError(`+kubebuilder:rbac: ${message}`, marker.location, hint);
  const found: UserError[] = [];
  const resources = marker.resources ?? [];
  const urls = marker.urls ?? [];
  if (marker.verbs.length === 0) found.push(at('needs verbs=', 'e.g. verbs=get;list;watch'));
  const upper = marker.verbs.filter((verb) => verb !== verb.toLowerCase());
  if (upper.length) found.push(at(`verbs are lower case in RBAC: ${upper.join(', ')}`, `write ${upper.map((v) => v.toLowerCase()).join(';')}`));
  if (resources.length === 0 && urls.length === 0) found.push(at('needs resources= or urls='));
  if (resources.length > 0 && (marker.groups ?? []).length === 0) {
    found.push(at('resources need groups=', 'use groups=core (or groups="") for pods, services, secrets and the other core resources'));
  }
  if (urls.length > 0 && (resources.length > 0 || (marker.groups ?? []).length > 0)) {
    found.push(at('urls= cannot be combined with groups= or resources= in one rule', 'write two markers'));
  }
  if (urls.length > 0 && namespace !== '') found.push(at('urls= only work in a ClusterRole, not in a namespaced Role'));
  const known = urls.length > 0 && resources.length === 0 ? urlVerbs : resourceVerbs;
  const unknown = marker.verbs.filter((verb) => verb === verb.toLowerCase() && !known.has(verb));
  if (unknown.length) found.push(at(`unknown verb${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`, `known verbs: ${[...known].join(';')}`));
  if (namespace !== '') {
    const groups = (marker.groups ?? []).map((group) => (group === 'core' ? '' : group));
    const global = groups.flatMap((group) => resources.map((resource) => `${group}/${resource.split('/')[0]}`)).filter((key) => clusterScoped.has(key));
    if (global.length) {
      const names = global.map((key) => key.replace(/^\//, ''));
      const [verb, pronoun] = names.length > 1 ? ['are', 'them'] : ['is', 'it'];
      found.push(
        at(
          `${names.join(', ')} ${verb} cluster-scoped: a Role (namespace ${namespace}) cannot grant ${pronoun}`,
          marker.namespace === undefined
            ? 'this operator watches one namespace (PROJECT namespaced: true); cluster-wide rights need opgen edit --namespaced=false'
            : 'leave out namespace= for a ClusterRole',
        ),
      );
    }
  }
  return found;
}
