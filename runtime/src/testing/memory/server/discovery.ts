/**
 * Discovery documents (`/api`, `/apis`, `/api/v1`, `/apis/<group>/<version>`) built from
 * the served resources, and `/version`, `/readyz`, `/healthz`, `/livez`.
 */
import type { Registry } from './registry.js';
import { apiVersionOf, type ResourceInfo } from './resources.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function apiVersions(): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: 'memory' }] };
}

export function apiGroupList(registry: Registry): unknown {
  const groups = new Map<string, string[]>();
  for (const info of registry.all()) {
    if (info.group === '') continue;
    const versions = groups.get(info.group) ?? [];
    if (!versions.includes(info.version)) versions.push(info.version);
    groups.set(info.group, versions);
  }
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groups].map(([name, versions]) => {
      const list = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
      return { name, versions: list, preferredVersion: list[0] };
    }),
  };
}

/** The APIResourceList of one group-version, or undefined when nothing is served there. */
export function apiResourceList(registry: Registry, group: string, version: string): unknown {
  const served = registry.all().filter((r) => r.group === group && r.version === version);
  if (served.length === 0) return undefined;
  const resources: unknown[] = [];
  for (const info of served) {
    resources.push(resource(info, info.plural, VERBS));
    if (info.status) resources.push(resource(info, `${info.plural}/status`, ['get', 'patch', 'update']));
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources };
}

/** kube-apiserver's short names of built-in resources (what `kubectl get deploy` resolves). */
const BUILTIN_SHORT_NAMES: Record<string, string[]> = {
  '/configmaps': ['cm'],
  '/endpoints': ['ep'],
  '/events': ['ev'],
  '/limitranges': ['limits'],
  '/namespaces': ['ns'],
  '/nodes': ['no'],
  '/persistentvolumeclaims': ['pvc'],
  '/persistentvolumes': ['pv'],
  '/pods': ['po'],
  '/replicationcontrollers': ['rc'],
  '/resourcequotas': ['quota'],
  '/serviceaccounts': ['sa'],
  '/services': ['svc'],
  'apiextensions.k8s.io/customresourcedefinitions': ['crd', 'crds'],
  'apps/daemonsets': ['ds'],
  'apps/deployments': ['deploy'],
  'apps/replicasets': ['rs'],
  'apps/statefulsets': ['sts'],
  'autoscaling/horizontalpodautoscalers': ['hpa'],
  'batch/cronjobs': ['cj'],
  'networking.k8s.io/ingresses': ['ing'],
  'networking.k8s.io/networkpolicies': ['netpol'],
  'policy/poddisruptionbudgets': ['pdb'],
  'scheduling.k8s.io/priorityclasses': ['pc'],
  'storage.k8s.io/storageclasses': ['sc'],
};

function resource(info: ResourceInfo, name: string, verbs: string[]): unknown {
  if (name.includes('/')) return { name, singularName: '', namespaced: info.namespaced, kind: info.kind, verbs };
  const names = info.crd?.spec.names as { shortNames?: string[]; categories?: string[] } | undefined;
  const shortNames = info.crd ? names?.shortNames : BUILTIN_SHORT_NAMES[`${info.group}/${info.plural}`];
  return { name, singularName: info.singular, namespaced: info.namespaced, kind: info.kind, verbs, ...(shortNames?.length ? { shortNames } : {}), ...(names?.categories?.length ? { categories: names.categories } : {}) };
}

export function version(kubernetesVersion: string): unknown {
  const [major, minor] = kubernetesVersion.split('.');
  return { major, minor, gitVersion: `v${kubernetesVersion}`, platform: 'memory' };
}
