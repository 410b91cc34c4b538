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

/** The compiler's own words after `compilation failed: ` (cel-go's on the API server, cel-js' in the memory cluster). */
export const COMPILER_TEXT = /compilation failed: [\s\S]*$/;
export const COMPILER_MASK = 'compilation failed: <the CEL compiler\'s message>';

interface StatusLike {
  kind?: string;
  message?: string;
  details?: { causes?: Array<{ message?: string }> };
}

/**
 * Replaces, in each 422's causes and in its message, the text a CEL compiler wrote after
 * `compilation failed: `; the field, the printed rule and everything else still compare.
 */
function maskCompilerText(outcomes: Outcome[]): Outcome[] {
  return outcomes.map((outcome) => {
    const body = outcome.body as StatusLike | undefined;
    if (body?.kind !== 'Status' || !body.details?.causes) return outcome;
    let message = body.message ?? '';
    const causes = body.details.causes.map((cause) => {
      if (!cause.message || !COMPILER_TEXT.test(cause.message)) return cause;
      const masked = cause.message.replace(COMPILER_TEXT, COMPILER_MASK);
      message = message.split(cause.message).join(masked);
      return { ...cause, message: masked };
    });
    return { ...outcome, body: { ...body, message, details: { ...body.details, causes } } };
  });
}

export const DIFFERENCES: Difference[] = [
  {
    id: 'cel-compile-error-text',
    scenarios: ['a CEL rule that does not compile is refused', 'a CEL rule selecting a field of a number is refused', 'isSorted() of a list of objects is refused'],
    mask: maskCompilerText,
  },
];
