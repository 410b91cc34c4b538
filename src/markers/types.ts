/**
 * The parsed forms of the package-level markers that other generators consume: RBAC rules
 * (`+kubebuilder:rbac:`) and admission webhooks (`+kubebuilder:webhook:`,
 * `+kubebuilder:webhookconfiguration:`). The marker parser produces these from comments
 * anywhere under `src/`; `generateRbac` and `generateWebhooks` turn them into manifests.
 *
 * Values are what the user wrote, after the marker grammar is applied (lists split, quotes
 * removed) and nothing more: `core` is not yet `""`, verbs keep their case, duplicates stay.
 * Normalising is the generator's job. Every marker carries the place it was written so that
 * a generator can report a located `UserError`.
 *
 * @module
 */
import type { Location } from '../errors.js';

/**
 * `+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch`
 *
 * One rule of the manager's role. Without `namespace` it belongs to the ClusterRole; with
 * one, to a Role in that namespace. `roleName` overrides the generator's default role name.
 */
export interface RbacMarker {
  /** API groups; `""` or `core` for the core group. Absent when the marker had no `groups=`. */
  groups?: string[];
  /** Resources, possibly with subresources (`deployments/status`). */
  resources?: string[];
  /** Object names the rule is limited to. */
  resourceNames?: string[];
  /** Verbs (`get`, `list`, `*`, ...); the marker requires at least one. */
  verbs: string[];
  /** Non-resource URLs (`/metrics`); written `urls=` in the marker. */
  urls?: string[];
  /** Namespace of the Role the rule goes into; absent for the ClusterRole. */
  namespace?: string;
  /** Name of the (Cluster)Role the rule goes into; absent for the generator's default. */
  roleName?: string;
  /** Where the marker was written. */
  location: Location;
}

/**
 * `+kubebuilder:webhook:path=/mutate-...,mutating=true,failurePolicy=fail,sideEffects=None,
 * groups=...,resources=...,verbs=create;update,versions=v1,name=m.example.com,admissionReviewVersions=v1`
 *
 * One webhook entry of the Mutating- or ValidatingWebhookConfiguration. Exactly one of
 * `path` and `url` is set (the parser enforces it).
 */
export interface WebhookRuleMarker {
  marker: 'webhook';
  /** Mutating (true) or validating (false). */
  mutating: boolean;
  /** As written: `fail`/`Fail`/`ignore`/`Ignore`. */
  failurePolicy: string;
  /** `Exact` or `Equivalent`, as written. */
  matchPolicy?: string;
  /** `None`, `NoneOnDryRun`, `Some`, `Unknown`, as written. */
  sideEffects?: string;
  /** Seconds; the parser checks it is an integer, the generator checks 1..30. */
  timeoutSeconds?: number;
  groups: string[];
  resources: string[];
  /** As written (`create`, `update`, `delete`, `connect`, `*`); the API wants upper case. */
  verbs: string[];
  versions: string[];
  /** The webhook's name, a domain with at least three segments. */
  name: string;
  /** Path on the webhook service; the service itself defaults to `webhook-service` in `system`. */
  path?: string;
  /** External URL instead of a service. */
  url?: string;
  /** Versions of the configuration objects to generate; only `v1` exists. */
  webhookVersions?: string[];
  admissionReviewVersions: string[];
  /** `Never` or `IfNeeded`, as written (mutating webhooks only). */
  reinvocationPolicy?: string;
  /** Service name instead of `webhook-service`. */
  serviceName?: string;
  /** Service namespace instead of `system`. */
  serviceNamespace?: string;
  /** Service port. */
  servicePort?: number;
  /** `namespaceSelector={…}`: a LabelSelector as JSON, matched against the request's namespace. */
  namespaceSelector?: WrittenJson;
  /** `objectSelector={…}`: a LabelSelector as JSON, matched against the object's labels. */
  objectSelector?: WrittenJson;
  /** `matchConditions=[{"name":…,"expression":…},…]`: CEL conditions the request must all meet. */
  matchConditions?: WrittenJson;
  location: Location;
}

/** A JSON value written in a marker argument, as parsed and as written, for located errors. */
export interface WrittenJson {
  value: unknown;
  raw: string;
  /** The 1-based column of the first character of `raw`, on the marker's line. */
  column: number;
}

/**
 * `+kubebuilder:webhookconfiguration:mutating=false,name=my-validating-config`
 *
 * Names the Mutating- (`mutating=true`) or ValidatingWebhookConfiguration object instead
 * of `mutating-webhook-configuration` / `validating-webhook-configuration`.
 */
export interface WebhookConfigurationMarker {
  marker: 'webhookconfiguration';
  mutating: boolean;
  name?: string;
  location: Location;
}

/** Either webhook marker; `marker` tells them apart. */
export type WebhookMarker = WebhookRuleMarker | WebhookConfigurationMarker;
