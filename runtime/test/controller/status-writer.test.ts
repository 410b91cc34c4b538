import { describe, expect, it } from 'vitest';
import type { ApplyOptions, Client } from '../../src/client/index.js';
import { statusWriter } from '../../src/controller/status-writer.js';
import type { Stored } from '../../src/object.js';
import { Sprocket } from '../fixtures/kinds.js';

// What the status writer sends, recorded from a client that answers each apply with the
// object the API server would store. The merge itself is proven against the real API server
// in object-reconcile.integration.test.ts.

const stored: Stored<Sprocket, true> = {
  metadata: { name: 's', namespace: 'ns', uid: 'u', resourceVersion: '1', generation: 3, creationTimestamp: '2026-11-27T00:00:00Z' },
  spec: {},
  status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Old', message: 'old', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 2 }] },
};

function recorder(): { client: Client; calls: Array<{ body: { status: unknown }; options: ApplyOptions }> } {
  const calls: Array<{ body: { status: unknown }; options: ApplyOptions }> = [];
  const client = {
    fieldManager: 'sprocket',
    applyStatus: async (_kind: unknown, body: { status: { conditions?: unknown[] } }, options: ApplyOptions) => {
      calls.push({ body, options });
      return { ...stored, status: { ...stored.status, ...body.status } };
    },
  } as unknown as Client;
  return { client, calls };
}

describe('ctx.status', () => {
  it('adds up the applies of one reconcile into one intent, sent whole each time', async () => {
    const { client, calls } = recorder();
    const status = statusWriter<Sprocket>(client, Sprocket, stored);
    const external = { type: 'External', status: 'True', reason: 'R', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' } as const;
    await status.apply({ observedSize: 1 });
    await status.apply({ conditions: [external] });
    await status.apply({ observedSize: 2 });
    expect(calls.map((c) => c.body.status)).toEqual([{ observedSize: 1 }, { observedSize: 1, conditions: [external] }, { observedSize: 2, conditions: [external] }]);
    expect(calls[0]!.body).toMatchObject({ apiVersion: 'test.opgen.dev/v1', kind: 'Sprocket', metadata: { name: 's', namespace: 'ns' } });
  });

  it('setCondition writes nothing when the condition is already so, and keeps lastTransitionTime while the status stays', async () => {
    const { client, calls } = recorder();
    const status = statusWriter<Sprocket>(client, Sprocket, { ...stored, metadata: { ...stored.metadata, generation: 2 } });
    await status.setCondition({ type: 'Ready', status: 'True', reason: 'Old', message: 'old' });
    expect(calls).toEqual([]);

    const next = statusWriter<Sprocket>(client, Sprocket, stored);
    await next.setCondition({ type: 'Ready', status: 'True', reason: 'New', message: 'new' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.options).toEqual({ fieldManager: 'sprocket/conditions/Ready' });
    expect(calls[0]!.body.status).toEqual({
      conditions: [{ type: 'Ready', status: 'True', reason: 'New', message: 'new', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 3 }],
    });
  });
});
