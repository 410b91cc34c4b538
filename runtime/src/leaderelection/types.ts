/** Lease-based leader election settings; defaults are controller-runtime's. */
export interface LeaderElectionOptions {
  /** Name of the Lease object, e.g. `abc123.example.com`. */
  id: string;
  /** Namespace of the Lease; defaults to the pod's namespace, or `default` out of cluster. */
  namespace?: string;
  /** Identity written as holder; defaults to `<hostname>_<uuid>`. */
  identity?: string;
  /** Default 15 000 ms. */
  leaseDurationMs?: number;
  /** Default 10 000 ms: a leader that cannot renew within this stops leading. */
  renewDeadlineMs?: number;
  /** Default 2 000 ms between acquire/renew attempts. */
  retryPeriodMs?: number;
  /**
   * Clear the holder when the election ends cleanly, so another replica takes over at
   * once instead of after `leaseDurationMs`. Default true.
   */
  releaseOnCancel?: boolean;
}
