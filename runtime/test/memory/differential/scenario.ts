/**
 * The differential suite's vocabulary: a scenario is plain data, a short list of steps
 * that run, in order, against a `Transport` (the real kube-apiserver's or the memory
 * cluster's). Every step's outcome is recorded; the two sides' recordings, normalized
 * (see normalize.ts), must be equal.
 *
 * Strings anywhere in a step (path, query, body) may hold `{ns}`, replaced by the
 * scenario's own namespace, which also prefixes cluster-scoped names so that scenarios
 * sharing the one real control plane never meet. `ref(step, path)` stands for a value
 * taken from an earlier step's response (a resourceVersion, a uid).
 */

/** A value read from the response of the earlier step named `step`, at the dotted `path`. */
export interface Ref {
  $ref: string;
  path: string;
}

/** See {@link Ref}. */
export function ref(step: string, path: string): Ref {
  return { $ref: step, path };
}

/** An HTTP request; its status code and body (object or Status) are recorded. */
export interface RequestStep {
  op?: 'request';
  /** Lets later steps `ref` this step's response. */
  name?: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | Ref>;
  body?: unknown;
  contentType?: string;
  /** Records the status only: a setup step whose body holds what the scenario is not about. */
  quiet?: boolean;
}

/**
 * Opens a watch that collects events in the background; a later `events` step records
 * them. The HTTP outcome of opening it (200, or an error Status) is recorded at once.
 */
export interface WatchStep {
  op: 'watch';
  name: string;
  path: string;
  query?: Record<string, string | number | boolean | Ref>;
}

/**
 * Waits until the watch `watch` has delivered `count` events (bookmarks included),
 * records them in order and, by default, closes the watch. Then waits `quietMs` more and
 * records any further events too, so a side that sends an extra event differs.
 */
export interface EventsStep {
  op: 'events';
  watch: string;
  count: number;
  /** Keep the watch open for a later `events` step. */
  keepOpen?: boolean;
}

/**
 * Asynchronous work of the cluster (garbage collection, namespace deletion) settles:
 * polls `path` until it answers 404 (`until: 'gone'`), or its body's `field` equals
 * `equals`, or is there or not (`exists`), then records the last answer. Not settling in time is recorded as such.
 */
export interface SettleStep {
  op: 'settle';
  path: string;
  until: 'gone' | { field: string; equals: unknown } | { field: string; exists: boolean };
  /** Default 60 s: kube-controller-manager's garbage collector is slow on a loaded machine. */
  timeoutMs?: number;
  /** Records the awaited field's value (and whether it settled) instead of the whole object. */
  quiet?: boolean;
}

/**
 * Waits `ms`: for what no request can observe. kube-controller-manager's garbage collector
 * learns of a new dependent through its informers, a moment after it is created; an
 * owner deleted before that moment is handled as if it had no dependents.
 */
export interface PauseStep {
  op: 'pause';
  ms: number;
}

export type Step = RequestStep | WatchStep | EventsStep | SettleStep | PauseStep;

/** One scenario: a name saying what the API server does, and its steps. */
export interface Scenario {
  /** Unique; says the behaviour, e.g. `update with a stale resourceVersion is a 409 Conflict`. */
  name: string;
  steps: Step[];
  /** Creates no namespace first (a scenario about namespaces themselves, or cluster-scoped objects). */
  noNamespace?: boolean;
  /**
   * Runs on a memory cluster of its own with these options. `historySize` (the changes of a
   * resource a watch can resume from) is how far back the watch cache reaches: the real one
   * started with the CRD, so an early resourceVersion is too old; a small history makes
   * the memory cluster's too.
   */
  memoryCluster?: { historySize: number };
}

/** The area of the issue a list of scenarios covers, for the report and STATUS.md. */
export interface Area {
  area: string;
  /** The branch whose part of the memory cluster this area tests: who fixes a difference. */
  owner: 'memserver' | 'ssa' | 'schema';
  scenarios: Scenario[];
}
