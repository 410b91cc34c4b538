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

function resource(info: ResourceInfo, name: string, verbs: string[]): unknown {
  return { name, singularName: name.includes('/') ? '' : info.singular, namespaced: info.namespaced, kind: info.kind, verbs };
}

export function version(kubernetesVersion: string): unknown {
  const [major, minor] = kubernetesVersion.split('.');
  return { major, minor, gitVersion: `v${kubernetesVersion}`, platform: 'memory' };
}
