import type { GeneratedFile } from '../../../writer/index.js';
import { generatedHeader, toYaml } from '../../../yaml.js';
import { commonLabels, yamlFile } from '../yaml-file.js';

const rbacApi = 'rbac.authorization.k8s.io/v1';
const allVerbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** The files `config/rbac/kustomization.yaml` lists before any per-kind role. */
export const rbacBaseResources = [
  'service_account.yaml',
  'role.yaml',
  'role_binding.yaml',
  'leader_election_role.yaml',
  'leader_election_role_binding.yaml',
  'metrics_auth_role.yaml',
  'metrics_auth_role_binding.yaml',
  'metrics_reader_role.yaml',
];

/**
 * The files a multi-cluster project's config/rbac/kustomization.yaml lists after the base
 * ones: the manager reads the kubeconfig Secrets naming its fleet's clusters.
 */
export const fleetRbacResources = ['kubeconfig_secret_reader_role.yaml', 'kubeconfig_secret_reader_role_binding.yaml'] as const;

const serviceAccountSubject = { kind: 'ServiceAccount', name: 'controller-manager', namespace: 'system' };

/**
 * config/rbac as `opgen init` writes it. The manager's own role (role.yaml) is what
 * `opgen manifests` rewrites from the controllers' RBAC markers; in a namespaced project
 * it is a Role bound with a RoleBinding, so the operator acts in its namespace only.
 */
export function rbacFiles(projectName: string, namespaced: boolean, multicluster = false): GeneratedFile[] {
  const labels = commonLabels(projectName);
  const roleKind = namespaced ? 'Role' : 'ClusterRole';
  const file = (path: string, content: string, ownership: GeneratedFile['ownership'] = 'user'): GeneratedFile => ({
    path: `config/rbac/${path}`,
    content,
    ownership,
  });
  return [
    file('kustomization.yaml', rbacKustomization(multicluster ? [...rbacBaseResources, ...fleetRbacResources] : rbacBaseResources)),
    file(
      'service_account.yaml',
      yamlFile([], {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { labels, name: 'controller-manager', namespace: 'system' },
      }),
    ),
    // What `opgen manifests` writes for a project without RBAC markers yet.
    file(
      'role.yaml',
      toYaml(
        [
          {
            apiVersion: rbacApi,
            kind: roleKind,
            metadata: namespaced ? { name: 'manager-role', namespace: 'system' } : { name: 'manager-role' },
            rules: [],
          },
        ],
        { header: generatedHeader },
      ),
      'generated',
    ),
    file(
      'role_binding.yaml',
      yamlFile([], {
        apiVersion: rbacApi,
        kind: namespaced ? 'RoleBinding' : 'ClusterRoleBinding',
        metadata: namespaced ? { labels, name: 'manager-rolebinding', namespace: 'system' } : { labels, name: 'manager-rolebinding' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: 'manager-role' },
        subjects: [serviceAccountSubject],
      }),
    ),
    file(
      'leader_election_role.yaml',
      yamlFile(['Permissions to do leader election: the Lease the replicas compete for, and Events about it.'], {
        apiVersion: rbacApi,
        kind: 'Role',
        metadata: { labels, name: 'leader-election-role', namespace: 'system' },
        rules: [
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: allVerbs },
          { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
        ],
      }),
    ),
    file(
      'leader_election_role_binding.yaml',
      yamlFile([], {
        apiVersion: rbacApi,
        kind: 'RoleBinding',
        metadata: { labels, name: 'leader-election-rolebinding', namespace: 'system' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'leader-election-role' },
        subjects: [serviceAccountSubject],
      }),
    ),
    ...metricsRbacFiles(projectName).map(({ path, content }) => file(path, content)),
    ...(multicluster ? fleetRbacFiles(projectName).map(({ path, content }) => file(path, content)) : []),
  ];
}

/**
 * A Role in the manager's own namespace to read the kubeconfig Secrets that name the fleet's
 * clusters (src/main.ts's --kubeconfig-secret-namespace defaults to that namespace). A Role,
 * not a ClusterRole: the manager never reads the Secrets of other namespaces. What it may
 * do on each cluster of the fleet is what that Secret's credentials may do there.
 */
function fleetRbacFiles(projectName: string): { path: string; content: string }[] {
  const labels = commonLabels(projectName);
  const [role, binding] = fleetRbacResources;
  return [
    {
      path: role,
      content: yamlFile(['Lets the manager read the kubeconfig Secrets that name the clusters it reconciles.'], {
        apiVersion: rbacApi,
        kind: 'Role',
        metadata: { labels, name: 'kubeconfig-secret-reader', namespace: 'system' },
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }],
      }),
    },
    {
      path: binding,
      content: yamlFile([], {
        apiVersion: rbacApi,
        kind: 'RoleBinding',
        metadata: { labels, name: 'kubeconfig-secret-reader-rolebinding', namespace: 'system' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'kubeconfig-secret-reader' },
        subjects: [serviceAccountSubject],
      }),
    },
  ];
}

/**
 * The RBAC of secure metrics (`--metrics-secure`, on by default): the manager asks the API
 * server who a scraper's token belongs to (TokenReview) and whether it may `get /metrics`
 * (SubjectAccessReview); both reviews are cluster-scoped, so these are cluster roles even
 * in a namespaced project. Scrapers need the metrics-reader role bound to them.
 */
function metricsRbacFiles(projectName: string): { path: string; content: string }[] {
  const labels = commonLabels(projectName);
  return [
    {
      path: 'metrics_auth_role.yaml',
      content: yamlFile(['Lets the manager check the bearer tokens of those who scrape /metrics, and their right to.'], {
        apiVersion: rbacApi,
        kind: 'ClusterRole',
        metadata: { labels, name: 'metrics-auth-role' },
        rules: [
          { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
          { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
        ],
      }),
    },
    {
      path: 'metrics_auth_role_binding.yaml',
      content: yamlFile([], {
        apiVersion: rbacApi,
        kind: 'ClusterRoleBinding',
        metadata: { labels, name: 'metrics-auth-rolebinding' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-auth-role' },
        subjects: [serviceAccountSubject],
      }),
    },
    {
      path: 'metrics_reader_role.yaml',
      content: yamlFile(
        [
          'Who may read the manager\'s /metrics: bind it to the identity that scrapes them, e.g. Prometheus\'s',
          `  kubectl create clusterrolebinding ${projectName}-metrics-reader --clusterrole=${projectName}-metrics-reader \\`,
          '    --serviceaccount=<prometheus namespace>:<prometheus service account>',
        ],
        {
          apiVersion: rbacApi,
          kind: 'ClusterRole',
          metadata: { labels, name: 'metrics-reader' },
          rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
        },
      ),
    },
  ];
}

/** config/rbac/kustomization.yaml listing `resources`. */
export function rbacKustomization(resources: readonly string[]): string {
  return yamlFile(
    [
      'RBAC of the manager: its service account, its role (written by `opgen manifests` from the',
      'controllers\' +kubebuilder:rbac markers), leader election and secure metrics. opgen create api',
      'adds admin, editor and viewer roles for each kind: they are for the cluster\'s users, not the manager.',
    ],
    { resources },
  );
}

/** The three per-kind roles kubebuilder users know: full access, read-write, read-only. */
export function kindRoleFiles(
  projectName: string,
  kind: { kind: string; fullGroup: string; plural: string; roleFileStem: string; roleNameStem: string },
): GeneratedFile[] {
  const labels = commonLabels(projectName);
  const status = { apiGroups: [kind.fullGroup], resources: [`${kind.plural}/status`], verbs: ['get'] };
  const roles = [
    {
      suffix: 'admin',
      comment: "Full access ('*') to this kind, for users who grant that access to others.",
      verbs: ['*'],
    },
    {
      suffix: 'editor',
      comment: 'Create, change and delete objects of this kind.',
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    },
    { suffix: 'viewer', comment: 'Read-only access to objects of this kind.', verbs: ['get', 'list', 'watch'] },
  ];
  return roles.map((role) => ({
    path: `config/rbac/${kind.roleFileStem}_${role.suffix}_role.yaml`,
    ownership: 'user',
    content: yamlFile(
      [role.comment, 'The manager does not use it: bind it to the users and groups who need it.'],
      {
        apiVersion: rbacApi,
        kind: 'ClusterRole',
        metadata: { labels, name: `${kind.roleNameStem}-${role.suffix}-role` },
        rules: [{ apiGroups: [kind.fullGroup], resources: [kind.plural], verbs: role.verbs }, status],
      },
    ),
  }));
}
