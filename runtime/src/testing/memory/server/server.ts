/**
 * The memory API server: storage, the served resources, the write pipeline's hooks and
 * the controllers the API server relies on (garbage collector, namespace controller),
 * behind one `handle` function that answers a REST request like kube-apiserver does.
 */
import type { Readable } from 'node:stream';
import type { HttpRequest } from '../../../rest/transport.js';
import { runControllers } from './controllers.js';
import { internalError, StatusError } from './errors.js';
import { DEFAULT_HOOKS, type PipelineHooks } from './hooks.js';
import { createRegistry } from './registry.js';
import { route } from './router.js';
import type { Reply, ServerState } from './state.js';
import { createStorage } from './storage.js';

export interface MemoryServerOptions {
  /** Milliseconds since the epoch; default `Date.now`. Timestamps the server writes come from it. */
  now?: () => number;
  /** Changes each resource's watch history keeps (the watch cache's capacity); default 1 000. Older resourceVersions get 410. */
  historySize?: number;
  /** Replaces some of the pipeline's hooks (schema, apply). */
  hooks?: Partial<PipelineHooks>;
}

/** The answer to one request: a JSON reply or an open watch. */
export type MemoryResponse = { code: number; body: unknown; warnings?: string[] } | { code: number; text: string } | { code: 200; stream: Readable };

export interface MemoryServer {
  /** Answers one request; never throws for an API error (the Status comes back as the body). */
  handle(request: HttpRequest): MemoryResponse;
  /** Resolves once the background controllers have nothing left to do. */
  idle(): Promise<void>;
  /** Whether controllers are due to run or a watch holds events its reader has not taken yet. */
  busy(): boolean;
  /** Ends open watches and stops the controllers. */
  close(): void;
  readonly state: ServerState;
}

export function createMemoryServer(options: MemoryServerOptions = {}): MemoryServer {
  const streams = new Set<Readable>();
  let scheduled: NodeJS.Immediate | undefined;
  let closed = false;
  let waiters: (() => void)[] = [];
  const state: ServerState = {
    storage: createStorage(options.historySize ?? 1000),
    registry: createRegistry(),
    hooks: { ...DEFAULT_HOOKS, ...options.hooks },
    now: options.now ?? Date.now,
    wake() {
      if (scheduled || closed) return;
      scheduled = setImmediate(pass);
    },
  };

  /** One pass of the controllers; they wake another pass through their own writes until none is left. */
  function pass(): void {
    scheduled = undefined;
    if (closed) return;
    runControllers(state);
    if (!scheduled) {
      const done = waiters;
      waiters = [];
      for (const resolve of done) resolve();
    }
  }

  return {
    state,
    handle(request) {
      try {
        const outcome = route(state, request);
        if ('stream' in outcome) {
          streams.add(outcome.stream);
          outcome.stream.on('close', () => streams.delete(outcome.stream));
          return { code: 200, stream: outcome.stream };
        }
        return toResponse(outcome.reply);
      } catch (error) {
        if (error instanceof StatusError) return error.text === undefined ? { code: error.code, body: error.status } : { code: error.code, text: error.text };
        const failure = internalError(error instanceof Error ? error.message : String(error));
        return { code: 500, body: failure.status };
      }
    },
    busy: () => scheduled !== undefined || [...streams].some((stream) => stream.readableLength > 0),
    idle() {
      if (!scheduled) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    close() {
      closed = true;
      if (scheduled) clearImmediate(scheduled);
      for (const stream of streams) stream.destroy();
      for (const resolve of waiters) resolve();
      waiters = [];
    },
  };
}

function toResponse(reply: Reply): MemoryResponse {
  return reply.warnings && reply.warnings.length > 0 ? { code: reply.code, body: reply.body, warnings: reply.warnings } : { code: reply.code, body: reply.body };
}
