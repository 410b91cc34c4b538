import { pluralOf } from '../names/plural.js';
import { builtinData, builtinNode } from '../schema/builtins/data.js';
import type { StrategyPermission } from './install.js';

/** An entry of an owned CRD's `resources`: a kind the operator creates for it. */
export interface OwnedResource {
  kind: string;
  name: string;
  version: string;
}

/** Built-in API groups whose name is not `<package>.k8s.io` (the core group is ''). */
const groupOfPackage: Record<string, string> = {
  core: '',
  apps: 'apps',
  batch: 'batch',
  autoscaling: 'autoscaling',
  policy: 'policy',
  rbac: 'rbac.authorization.k8s.io',
  flowcontrol: 'flowcontrol.apiserver.k8s.io',
};

/**
 * What the manager needs for its own running, not objects it makes for a custom resource:
 * events, leader-election leases, and the reviews secure metrics and webhooks create.
 */
const infrastructure = new Set(['/events', 'events.k8s.io/events', 'coordination.k8s.io/leases', 'authentication.k8s.io/tokenreviews', 'authorization.k8s.io/subjectaccessreviews']);

/**
 * The built-in kinds the manager may create, from its install strategy's rules: what OLM's
 * console lists under an owned kind's resources (operator-sdk needs a marker per kind for
 * this). Only built-in kinds of the pinned Kubernetes release are named, each in its newest
 * stable version; custom kinds and the manager's own infrastructure are left out.
 */
export function createdResources(permissions: readonly StrategyPermission[]): OwnedResource[] {
  const kinds = builtinKinds();
  const found = new Map<string, OwnedResource>();
  for (const rule of permissions.flatMap((p) => p.rules) as { apiGroups?: string[]; resources?: string[]; verbs?: string[] }[]) {
    if (!rule.verbs?.some((v) => v === 'create' || v === '*')) continue;
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        const key = `${group}/${resource}`;
        const kind = kinds.get(key);
        if (kind && !infrastructure.has(key)) found.set(`${group}/${kind.kind}`, kind);
      }
    }
  }
  return [...found.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

let cached: Map<string, OwnedResource> | undefined;

/** `<group>/<plural>` → the kind and its newest stable version, for every built-in kind. */
function builtinKinds(): Map<string, OwnedResource> {
  if (cached) return cached;
  const { types } = builtinData();
  cached = new Map();
  for (const [name, index] of Object.entries(types)) {
    const match = /^io\.k8s\.api\.([a-z]+)\.(v\d+)\.([A-Z]\w*)$/.exec(name);
    if (!match) continue;
    const [, pkg, version, kind] = match as unknown as [string, string, string, string];
    const properties = (builtinNode(index)?.properties ?? {}) as Record<string, unknown>;
    // A kind is a type with apiVersion, kind and metadata; the rest are its parts.
    if (!('apiVersion' in properties && 'kind' in properties && 'metadata' in properties) || kind.endsWith('List')) continue;
    const group = groupOfPackage[pkg!] ?? `${pkg}.k8s.io`;
    const key = `${group}/${pluralOf(kind)}`;
    const known = cached.get(key);
    if (!known || Number(version.slice(1)) > Number(known.version.slice(1))) cached.set(key, { kind, name: '', version });
  }
  return cached;
}
