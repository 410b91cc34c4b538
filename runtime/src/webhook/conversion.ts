import type { Kind } from '../api/kind.js';
import { apiVersionOf } from '../api/kind.js';
import { groupOf } from '../api/group.js';
import { kindLabel } from '../rest/paths.js';
import type { KubeObject } from '../object.js';
import { isBug } from './deny.js';
import type { ConversionRequest, ConversionResponse, WebhookContext } from './types.js';

/** How one spoke version converts to and from the hub; plain functions, no methods on types. */
export interface SpokeConversion<S, H> {
  /**
   * The webhook server always passes `context` (the call's abort signal and logger); it is
   * optional so that a test can call the conversion directly, as the scaffold's round trips do.
   */
  toHub(spoke: S, context?: WebhookContext): H | Promise<H>;
  /** The hub object as this spoke version; `context` as for `toHub`. */
  fromHub(hub: H, context?: WebhookContext): S | Promise<S>;
}

/** The conversions of one group and kind: a hub version and its spokes by `apiVersion`. */
export interface KindConversions {
  hub: Kind;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each spoke converts its own pair of types.
  spokes: Map<string, SpokeConversion<any, any>>;
}

/** Conversions by `<group>/<kind>`, the key of {@link conversionKey}. */
export type ConversionRegistry = Map<string, KindConversions>;

/** The kinds whose conversion `registry` serves, named as informers name them (`Shelf.test.opgen.dev`). */
export function convertedKinds(registry: ConversionRegistry): Set<string> {
  return new Set([...registry.values()].map(({ hub }) => kindLabel(hub)));
}

export function conversionKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}


// The API server refuses a conversion that changes any other metadata; saying which field
// here makes a unit test fail with the reason instead of an opaque 500 from the API server.
const MUTABLE_METADATA = new Set(['labels', 'annotations']);

function changedMetadata(before: KubeObject, after: KubeObject): string | undefined {
  const a = (before.metadata ?? {}) as Record<string, unknown>;
  const b = (after.metadata ?? {}) as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (MUTABLE_METADATA.has(key)) continue;
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) return `metadata.${key}`;
  }
  return undefined;
}

/**
 * Converts one object to `desiredAPIVersion` through the hub (spoke → hub → spoke) and
 * checks that only labels and annotations of its metadata changed. Throws a one-line error.
 */
export async function convertObject(registry: ConversionRegistry, object: KubeObject, desiredAPIVersion: string, context: WebhookContext): Promise<KubeObject> {
  const from = object.apiVersion ?? '';
  const kind = object.kind ?? '';
  if (from === desiredAPIVersion) return object;
  const conversions = registry.get(conversionKey(groupOf(from), kind));
  if (!conversions) throw new Error(`no conversion registered for kind ${kind} of ${groupOf(from) || 'the core group'}`);
  const hubVersion = apiVersionOf(conversions.hub);
  const spoke = (apiVersion: string) => {
    const found = conversions.spokes.get(apiVersion);
    if (!found) throw new Error(`${kind} ${apiVersion} is neither the hub ${hubVersion} nor a registered spoke`);
    return found;
  };
  let hub: KubeObject = object;
  if (from !== hubVersion) hub = { ...(await spoke(from).toHub(structuredClone(object), context)), apiVersion: hubVersion, kind };
  let result = hub;
  if (desiredAPIVersion !== hubVersion) result = { ...(await spoke(desiredAPIVersion).fromHub(structuredClone(hub), context)), apiVersion: desiredAPIVersion, kind };
  const field = changedMetadata(object, result);
  if (field) {
    const name = object.metadata?.name ?? '';
    throw new Error(`converting ${kind} ${name} from ${from} to ${desiredAPIVersion} changed ${field}: only labels and annotations may change`);
  }
  return result;
}

/**
 * Converts every object of a review; one failure fails the whole review, as the API server
 * expects. `onBug` hears of a failure that is a programming fault (TypeError…), to count it.
 */
export async function convertReview(registry: ConversionRegistry, request: ConversionRequest, context: WebhookContext, onBug: (error: unknown) => void = () => {}): Promise<ConversionResponse> {
  try {
    const convertedObjects: KubeObject[] = [];
    for (const object of request.objects) convertedObjects.push(await convertObject(registry, object, request.desiredAPIVersion, context));
    return { uid: request.uid, convertedObjects, result: { status: 'Success' } };
  } catch (error) {
    if (isBug(error)) onBug(error);
    return { uid: request.uid, convertedObjects: [], result: { status: 'Failure', message: (error as Error).message } };
  }
}
