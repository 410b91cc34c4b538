import type { Answer } from './answer.js';
import type { FuzzCase } from './cases.js';

/**
 * A class of fuzz cases where the memory cluster still answers otherwise than the API
 * server: each names the differential suite's scenario that shows it (listed in
 * differential/gaps.ts, so it is visible in every run and in STATUS.md), and matches
 * exactly the cases of that class. Counted apart in the agreement table, never as agreement.
 */
export interface KnownFuzzDifference {
  /** The scenario in the differential suite, listed in gaps.ts. */
  scenario: string;
  matches(fuzz: FuzzCase, real: Answer, memory: Answer): boolean;
}

export const KNOWN_FUZZ_DIFFERENCES: KnownFuzzDifference[] = [];
