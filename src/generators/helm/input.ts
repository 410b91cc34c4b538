/** One Kubernetes object as kustomize printed it. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** What the chart is made from: the project's kustomize output and a few facts about it. */
export interface HelmChartInput {
  /** The chart's name, and the prefix of its helpers' names. */
  projectName: string;
  /** The objects `kubectl kustomize config/default` printed, in its order. */
  manifests: readonly Manifest[];
  /**
   * The objects of config/prometheus and config/network-policy, built on their own:
   * config/default lists them only when the user opted in, yet the chart offers them
   * behind a value. Their names lack the prefix and their namespace is kustomize's `system`.
   */
  optional: readonly Manifest[];
  /** config/default's `namespace`, which becomes the release namespace. */
  namespace: string;
  /** config/default's `namePrefix`, which becomes the release's full name. */
  namePrefix: string;
  /** The Lease name built into src/main.ts, when it could be read. */
  leaderElectionId?: string;
  /** The version of the operator (package.json), the chart's appVersion. */
  appVersion: string;
}
