import { apiVersionOf, type Kind } from '../api/kind.js';
import type { Condition } from '../api/index.js';
import type { Client } from '../client/index.js';
import { setCondition } from '../helpers/conditions.js';
import type { KubeObject, Stored } from '../object.js';
import type { StatusWriter } from './types.js';

/**
 * The status writer of one reconcile of `object`. Status applies add up within the
 * reconcile (one intent); conditions go one field manager per type, so neither removes
 * the other's fields. `now` stamps `lastTransitionTime`: the manager's clock, so conditions
 * carry the memory cluster's time in tests.
 */
export function statusWriter<T extends KubeObject>(client: Client, kind: Kind<T>, object: Stored<KubeObject>, now: () => Date = () => new Date()): StatusWriter<T> {
  const { name, namespace } = object.metadata;
  const identity = { apiVersion: apiVersionOf(kind), kind: kind.kind, metadata: kind.namespaced ? { name, namespace } : { name } };
  let intent: Record<string, unknown> = {};
  /** The conditions as last seen: the object handed in, then each write's answer. */
  let conditions = conditionsOf(object);

  const write = async (status: unknown, fieldManager?: string): Promise<Stored<T>> => {
    const stored = (await client.applyStatus(kind, { ...identity, status } as never, fieldManager ? { fieldManager } : {})) as Stored<T>;
    conditions = conditionsOf(stored);
    return stored;
  };

  return {
    apply(status) {
      intent = merged(intent, status as Record<string, unknown>);
      return write(intent);
    },
    async setCondition(update) {
      const next = setCondition(conditions, update, object.metadata.generation, now());
      if (next === conditions) return;
      const condition = next.find((c) => c.type === update.type);
      await write({ conditions: [condition] }, `${client.fieldManager}/conditions/${update.type}`);
    },
  };
}

function conditionsOf(object: KubeObject): Condition[] | undefined {
  return (object as { status?: { conditions?: Condition[] } }).status?.conditions;
}

/** `into` with `from` merged in: objects key by key, anything else replaced. */
function merged(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const before = out[key];
    out[key] = isRecord(before) && isRecord(value) ? merged(before, value) : value;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
