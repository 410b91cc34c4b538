/**
 * Verbs the API server's authorizer knows for resources: the request verbs, and the special
 * ones RBAC checks on certain resources (`use`, `bind`, `escalate`, `impersonate`,
 * `approve`, `sign`). A verb outside these grants nothing, so it is most likely a typo.
 */
export const resourceVerbs: ReadonlySet<string> = new Set([
  '*',
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'use',
  'bind',
  'escalate',
  'impersonate',
  'approve',
  'sign',
]);

/** Verbs of non-resource URLs: the HTTP methods, lower case. */
export const urlVerbs: ReadonlySet<string> = new Set(['*', 'get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/**
 * Cluster-scoped built-in resources (`group/resource`, '' for core), which a namespaced
 * Role cannot grant: the API server accepts such a rule and it never applies.
 */
export const clusterScopedBuiltins: ReadonlySet<string> = new Set([
  '/nodes',
  '/namespaces',
  '/persistentvolumes',
  '/componentstatuses',
  'rbac.authorization.k8s.io/clusterroles',
  'rbac.authorization.k8s.io/clusterrolebindings',
  'apiextensions.k8s.io/customresourcedefinitions',
  'apiregistration.k8s.io/apiservices',
  'storage.k8s.io/storageclasses',
  'storage.k8s.io/csidrivers',
  'storage.k8s.io/csinodes',
  'storage.k8s.io/volumeattachments',
  'scheduling.k8s.io/priorityclasses',
  'node.k8s.io/runtimeclasses',
  'certificates.k8s.io/certificatesigningrequests',
  'admissionregistration.k8s.io/mutatingwebhookconfigurations',
  'admissionregistration.k8s.io/validatingwebhookconfigurations',
  'admissionregistration.k8s.io/validatingadmissionpolicies',
  'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'flowcontrol.apiserver.k8s.io/flowschemas',
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations',
  'networking.k8s.io/ingressclasses',
  'networking.k8s.io/ipaddresses',
  'networking.k8s.io/servicecidrs',
]);
