import type { Outcome } from './run.js';

/**
 * A deliberate difference between the memory cluster and the real API server. Each is
 * explained, under a heading `## <id>`, in docs/memory-cluster-differences.md, and shown
 * by at least one scenario: the suite checks that the listed scenarios do differ, and that
 * they differ only in what `mask` removes (a difference no scenario shows fails the suite,
 * as does one the docs do not explain).
 */
export interface Difference {
  id: string;
  /** The scenarios that show it. */
  scenarios: string[];
  /** Removes the difference from a normalized recording (applied to both sides). */
  mask(outcomes: Outcome[]): Outcome[];
}

export const DIFFERENCES: Difference[] = [];
