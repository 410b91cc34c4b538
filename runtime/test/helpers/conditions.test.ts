import { describe, expect, it } from 'vitest';
import type { Condition } from '../../src/api/index.js';
import { findCondition, isConditionTrue, removeCondition, setCondition } from '../../src/helpers/index.js';

const monday = new Date('2030-01-07T09:00:00.123Z');
const tuesday = new Date('2030-01-08T09:00:00Z');

describe('setCondition', () => {
  it('appends a new condition stamped now, at second precision, with the generation', () => {
    const next = setCondition(undefined, { type: 'Ready', status: 'False', reason: 'Pending', message: 'waiting' }, 3, monday);
    expect(next).toEqual([
      { type: 'Ready', status: 'False', observedGeneration: 3, lastTransitionTime: '2030-01-07T09:00:00Z', reason: 'Pending', message: 'waiting' },
    ]);
  });

  it('keeps lastTransitionTime while the status stays, moves it when the status flips', () => {
    const start = setCondition([], { type: 'Ready', status: 'False', reason: 'Pending', message: 'waiting' }, 1, monday);
    const sameStatus = setCondition(start, { type: 'Ready', status: 'False', reason: 'StillPending', message: 'still' }, 2, tuesday);
    expect(sameStatus[0]).toMatchObject({ reason: 'StillPending', observedGeneration: 2, lastTransitionTime: '2030-01-07T09:00:00Z' });
    const flipped = setCondition(sameStatus, { type: 'Ready', status: 'True', reason: 'Bound', message: '' }, 2, tuesday);
    expect(flipped[0]).toMatchObject({ status: 'True', lastTransitionTime: '2030-01-08T09:00:00Z' });
  });

  it('returns the same array when nothing changed, a new one otherwise, and never changes its input', () => {
    const conditions: Condition[] = [
      { type: 'Ready', status: 'True', reason: 'Bound', message: '', lastTransitionTime: '2030-01-01T00:00:00Z', observedGeneration: 1 },
      { type: 'Degraded', status: 'False', reason: 'Fine', message: '', lastTransitionTime: '2030-01-01T00:00:00Z' },
    ];
    const frozen = structuredClone(conditions);
    expect(setCondition(conditions, { type: 'Ready', status: 'True', reason: 'Bound', message: '' }, 1, tuesday)).toBe(conditions);
    const changed = setCondition(conditions, { type: 'Ready', status: 'True', reason: 'Bound', message: '' }, 2, tuesday);
    expect(changed).not.toBe(conditions);
    expect(changed.map((c) => c.type)).toEqual(['Ready', 'Degraded']);
    expect(conditions).toEqual(frozen);
  });
});

describe('condition queries', () => {
  const conditions: Condition[] = [
    { type: 'Ready', status: 'True', reason: 'Bound', message: '', lastTransitionTime: '2030-01-01T00:00:00Z' },
    { type: 'Degraded', status: 'Unknown', reason: 'NoData', message: '', lastTransitionTime: '2030-01-01T00:00:00Z' },
  ];

  it('finds, tests and removes by type', () => {
    expect(findCondition(conditions, 'Degraded')?.reason).toBe('NoData');
    expect(findCondition(undefined, 'Ready')).toBeUndefined();
    expect(isConditionTrue(conditions, 'Ready')).toBe(true);
    expect(isConditionTrue(conditions, 'Degraded')).toBe(false);
    expect(isConditionTrue(conditions, 'Missing')).toBe(false);
    expect(removeCondition(conditions, 'Ready').map((c) => c.type)).toEqual(['Degraded']);
    expect(removeCondition(conditions, 'Missing')).toBe(conditions);
  });
});
