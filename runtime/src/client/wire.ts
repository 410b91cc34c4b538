/**
 * The shape a client-node model has on the wire. The client-node `V1…` classes differ
 * from the JSON the API server speaks in two ways, both undone by client-node's own
 * serializer: timestamps are typed as `Date`, and a few fields are renamed to be valid
 * identifiers (`_default`, `_from`, `x_kubernetes_list_type`, `ref` for `$ref`). This
 * runtime keeps objects exactly as the API server sends them (parsed JSON, no
 * per-object conversion), so `AsJson<V1Pod>` is `V1Pod` with every `Date` typed as an
 * RFC 3339 `string` and every field under its wire name.
 */
export type AsJson<T> = 0 extends 1 & T
  ? T
  : T extends Date
    ? string
    : T extends readonly (infer U)[]
      ? AsJson<U>[]
      : T extends object
        ? { [K in keyof T as WireName<K, T>]: AsJson<T[K]> }
        : T;

/** The JSON name of a client-node model property. */
type WireName<K, T> = K extends `x_kubernetes_${infer Rest}`
  ? `x-kubernetes-${Dashed<Rest>}`
  : K extends `_${infer Rest}`
    ? Rest
    : // `$ref` / `$schema` exist only in JSON schema props (V1JSONSchemaProps), which alone has x_kubernetes_ fields.
      'x_kubernetes_list_type' extends keyof T
      ? K extends 'ref' | 'schema'
        ? `$${K}`
        : K
      : K;

type Dashed<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}-${Dashed<Tail>}` : S;
