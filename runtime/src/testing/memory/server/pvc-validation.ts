/**
 * `ValidatePersistentVolumeClaimUpdate`'s immutability rule: a claim's spec cannot change
 * after creation, except a volumeName set once, a storageClassName set once where none was,
 * and for a bound claim its storage request and volumeAttributesClassName. The error
 * carries the diff of the old and new spec as the API server prints it: the internal Go
 * type as JSON (Go field names, nil pointers as null) in a unified diff.
 *
 * @module
 */
import type { FieldError } from './errors.js';
import type { Obj } from './storage.js';
import { goIndentedJson, unifiedDiff } from './unified-diff.js';

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

const sortedMap = (map: unknown): Obj | null =>
  map !== null && typeof map === 'object' ? Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : null;

/** metav1.LabelSelector keeps its JSON names; its empty parts are left out. */
function selector(value: Obj | undefined): Obj | null {
  if (!value) return null;
  const out: Obj = {};
  if (value.matchLabels && Object.keys(value.matchLabels).length > 0) out.matchLabels = sortedMap(value.matchLabels);
  if (Array.isArray(value.matchExpressions) && value.matchExpressions.length > 0) {
    out.matchExpressions = value.matchExpressions.map((r: Obj) => ({ key: r.key ?? '', operator: r.operator ?? '', ...(r.values?.length ? { values: r.values } : {}) }));
  }
  return out;
}

/** The claim spec as the internal `core.PersistentVolumeClaimSpec` marshals: every field, in the type's order. */
function internalSpec(spec: Obj): Obj {
  const source = spec.dataSource;
  const ref = spec.dataSourceRef;
  return {
    AccessModes: spec.accessModes ?? null,
    Selector: selector(spec.selector),
    Resources: { Limits: sortedMap(spec.resources?.limits), Requests: sortedMap(spec.resources?.requests) },
    VolumeName: spec.volumeName ?? '',
    StorageClassName: spec.storageClassName ?? null,
    VolumeMode: spec.volumeMode ?? null,
    DataSource: source ? { APIGroup: source.apiGroup ?? null, Kind: source.kind ?? '', Name: source.name ?? '' } : null,
    DataSourceRef: ref ? { APIGroup: ref.apiGroup ?? null, Kind: ref.kind ?? '', Name: ref.name ?? '', Namespace: ref.namespace ?? null } : null,
    VolumeAttributesClassName: spec.volumeAttributesClassName ?? null,
  };
}

/**
 * The spec errors of an update of PersistentVolumeClaim `old` to `claim` (status already
 * carried over from `old`, as the strategy does before validation).
 *
 * @example
 * validateClaimUpdate(claim, old); // [] or the `spec: Forbidden: spec is immutable ...` error
 */
export function validateClaimUpdate(claim: Obj, old: Obj): FieldError[] {
  const before = internalSpec(old.spec ?? {});
  const after = internalSpec(claim.spec ?? {});
  // The volume binder sets volumeName once.
  if (before.VolumeName === '') before.VolumeName = after.VolumeName;
  // A claim created without a class may get one later (retroactive default StorageClass).
  const oldBeta = old.metadata?.annotations?.[BETA_STORAGE_CLASS];
  if (oldBeta === undefined && before.StorageClassName === null && after.StorageClassName) after.StorageClassName = null;
  if (claim.status?.phase === 'Bound') {
    // What a bound claim may change: its size (expansion) and volume attributes class.
    if (after.Resources.Requests) after.Resources.Requests = sortedMap({ ...after.Resources.Requests, storage: before.Resources.Requests?.storage });
    if (after.VolumeAttributesClassName !== null) after.VolumeAttributesClassName = before.VolumeAttributesClassName;
  }
  const oldText = goIndentedJson(before);
  const newText = goIndentedJson(after);
  if (oldText === newText) return [];
  return [
    {
      type: 'FieldValueForbidden',
      field: 'spec',
      detail: `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${unifiedDiff(oldText, newText)}`,
    },
  ];
}
