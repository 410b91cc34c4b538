import type { Condition } from '../api/index.js';
import { removeCondition, setCondition, type ConditionUpdate } from '../helpers/conditions.js';

/** The status a chart-backed CR reports: operator-sdk's helm operator's, so its tooling reads it. */
export interface ReleaseStatus {
  conditions?: Condition[];
  deployedRelease?: { name: string; manifest: string };
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

/** The status after a deployed release: Deployed, no failure conditions. */
export function deployedStatus(previous: ReleaseStatus, release: string, manifest: string): ReleaseStatus {
  const upgraded = previous.deployedRelease !== undefined;
  const changed = previous.deployedRelease?.manifest !== manifest;
  const current = previous.conditions?.find((c) => c.type === ConditionType.Deployed);
  // An unchanged manifest keeps the reason of the install or upgrade that deployed it.
  const reason = !changed && current?.status === 'True' ? current.reason : upgraded ? Reason.UpgradeSuccessful : Reason.InstallSuccessful;
  let conditions = initialized(previous.conditions);
  conditions = set(conditions, { type: ConditionType.Deployed, status: 'True', reason, message: `release ${release} is deployed` });
  conditions = removeCondition(removeCondition(conditions, ConditionType.ReleaseFailed), ConditionType.Irreconcilable);
  return { ...previous, conditions, deployedRelease: { name: release, manifest } };
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
