import type { Condition, ConditionStatus } from '../api/index.js';
import { formatTime } from '../client/time.js';

/** What a controller decides about a condition; the helper adds the times. */
export interface ConditionUpdate {
  type: string;
  status: ConditionStatus;
  /** CamelCase, e.g. `PvcCreated`. */
  reason: string;
  message: string;
}

/**
 * Sets the condition of `update.type`, as `meta.SetStatusCondition` does: an existing
 * condition keeps its place and its `lastTransitionTime` unless its status changes; a new
 * one is appended. Returns `conditions` itself when nothing changed, so
 * `next !== conditions` tells whether the status needs writing; otherwise a new array
 * (the input is never changed).
 *
 * @example
 * status.conditions = setCondition(
 *   status.conditions,
 *   { type: 'Ready', status: 'True', reason: 'PvcBound', message: '' },
 *   obj.metadata?.generation,
 * );
 */
export function setCondition(
  conditions: Condition[] | undefined,
  update: ConditionUpdate,
  observedGeneration?: number,
  now: Date = new Date(),
): Condition[] {
  const list = conditions ?? [];
  const index = list.findIndex((c) => c.type === update.type);
  const existing = index >= 0 ? list[index] : undefined;
  if (
    existing &&
    existing.status === update.status &&
    existing.reason === update.reason &&
    existing.message === update.message &&
    existing.observedGeneration === observedGeneration
  ) {
    return list;
  }
  const condition: Condition = {
    type: update.type,
    status: update.status,
    ...(observedGeneration !== undefined && { observedGeneration }),
    lastTransitionTime: existing && existing.status === update.status ? existing.lastTransitionTime : formatTime(now),
    reason: update.reason,
    message: update.message,
  };
  if (index < 0) return [...list, condition];
  const next = list.slice();
  next[index] = condition;
  return next;
}

/** Removes the condition of `type`; returns `conditions` itself when there was none. */
export function removeCondition(conditions: Condition[] | undefined, type: string): Condition[] {
  const list = conditions ?? [];
  return list.some((c) => c.type === type) ? list.filter((c) => c.type !== type) : list;
}

/** The condition of `type`, if `conditions` holds one. */
export function findCondition(conditions: Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** Whether the condition of `type` is there with status `True`. */
export function isConditionTrue(conditions: Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}
