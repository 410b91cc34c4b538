import { createHash } from 'node:crypto';
import type { Condition } from '../api/index.js';
import { removeCondition, setCondition, type ConditionUpdate } from '../helpers/conditions.js';
import type { ObjectRef } from './inventory.js';

/**
 * The release a CR deployed, as its status reports it: no rendered manifest (it holds every
 * Secret the chart renders, readable by anyone who may read the CR, its viewer role
 * included), only the manifest's digest, which says whether a new rendering changed
 * anything, and the references of the objects it applied, which a later release prunes
 * against and an uninstall deletes.
 */
export interface DeployedRelease {
  name: string;
  /** `sha256:<hex>` of the rendered manifest. */
  manifestDigest: string;
  /** The objects the release applied, in helm's install order. */
  objects: ObjectRef[];
  /**
   * The rendered manifest, as operator-sdk and opgen before 0.2 reported it: read once to
   * know what to prune, then removed from the status.
   */
  manifest?: string;
}

/** The status a chart-backed CR reports: operator-sdk's helm operator's conditions, so its tooling reads them. */
export interface ReleaseStatus {
  conditions?: Condition[];
  deployedRelease?: DeployedRelease;
}

/** `sha256:<hex>` of a rendered manifest. */
export function manifestDigest(manifest: string): string {
  return `sha256:${createHash('sha256').update(manifest).digest('hex')}`;
}

/** The digest of the manifest `release` deployed, also for one reported by an earlier operator (its manifest). */
export function deployedDigest(release: Partial<DeployedRelease> | undefined): string | undefined {
  return release?.manifestDigest ?? (release?.manifest === undefined ? undefined : manifestDigest(release.manifest));
}

/** operator-sdk's condition types and reasons. */
export const ConditionType = { Initialized: 'Initialized', Deployed: 'Deployed', ReleaseFailed: 'ReleaseFailed', Irreconcilable: 'Irreconcilable' } as const;
export const Reason = {
  InstallSuccessful: 'InstallSuccessful',
  UpgradeSuccessful: 'UpgradeSuccessful',
  InstallError: 'InstallError',
  UpgradeError: 'UpgradeError',
  ReconcileError: 'ReconcileError',
} as const;

/** The status after a deployed release (its manifest, the objects it applied): Deployed, no failure conditions. */
export function deployedStatus(previous: ReleaseStatus, release: string, manifest: string, objects: ObjectRef[]): ReleaseStatus {
  const upgraded = previous.deployedRelease !== undefined;
  const digest = manifestDigest(manifest);
  const changed = deployedDigest(previous.deployedRelease) !== digest;
  const current = previous.conditions?.find((c) => c.type === ConditionType.Deployed);
  // An unchanged manifest keeps the reason of the install or upgrade that deployed it.
  const reason = !changed && current?.status === 'True' ? current.reason : upgraded ? Reason.UpgradeSuccessful : Reason.InstallSuccessful;
  let conditions = initialized(previous.conditions);
  conditions = set(conditions, { type: ConditionType.Deployed, status: 'True', reason, message: `release ${release} is deployed` });
  conditions = removeCondition(removeCondition(conditions, ConditionType.ReleaseFailed), ConditionType.Irreconcilable);
  return { ...previous, conditions, deployedRelease: { name: release, manifestDigest: digest, objects } };
}

/** The status after a release that failed to render or apply; the deployed release, if any, stays reported. */
export function failedStatus(previous: ReleaseStatus, type: 'ReleaseFailed' | 'Irreconcilable', message: string): ReleaseStatus {
  const reason = type === ConditionType.Irreconcilable ? Reason.ReconcileError : previous.deployedRelease ? Reason.UpgradeError : Reason.InstallError;
  let conditions = initialized(previous.conditions);
  conditions = set(conditions, { type, status: 'True', reason, message });
  return { ...previous, conditions };
}

function initialized(conditions: Condition[] | undefined): Condition[] {
  return set(conditions, { type: ConditionType.Initialized, status: 'True', reason: '', message: '' });
}

function set(conditions: Condition[] | undefined, update: ConditionUpdate): Condition[] {
  return setCondition(conditions, update);
}
