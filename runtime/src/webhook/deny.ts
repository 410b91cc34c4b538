import type { AdmissionRequest, AdmissionStatus } from './types.js';

/** A refusal a handler means: its code and reason reach the client as they are. */
export class AdmissionDenied extends Error {
  readonly code: number;
  readonly reason: string | undefined;
  readonly warnings: string[];
  constructor(message: string, options: { code?: number; reason?: string; warnings?: string[] } = {}) {
    super(message);
    this.name = 'AdmissionDenied';
    this.code = options.code ?? 403;
    this.reason = options.reason;
    this.warnings = options.warnings ?? [];
  }

  /** The `status` of the refusal of `request`. */
  statusFor(_request: AdmissionRequest): AdmissionStatus {
    return { code: this.code, message: this.message, ...(this.reason ? { reason: this.reason } : {}) };
  }
}

/**
 * Refuses the request: `throw deny('dbSize cannot shrink', { code: 422, reason: 'Invalid' })`.
 * Default code 403, as for any other error a handler throws; `warnings` are shown with the refusal.
 */
export function deny(message: string, options: { code?: number; reason?: string; warnings?: string[] } = {}): AdmissionDenied {
  return new AdmissionDenied(message, options);
}

/**
 * Whether `error` is a programming fault rather than a refusal: those answer 500 and are
 * counted as panics, like a Go panic recovered by controller-runtime.
 */
export function isBug(error: unknown): boolean {
  return error instanceof TypeError || error instanceof ReferenceError || error instanceof RangeError || error instanceof SyntaxError;
}
