/**
 * The real side's answers kept in a file and served again, to work on the memory cluster
 * without a control plane (as the differential suite's DIFF_REAL_RECORDING): `FUZZ_RECORD`
 * writes them, `FUZZ_REPLAY` reads them. Never the suite's own mode: a recording belongs to
 * one seed, one count and one version of the generator.
 */
import { ApiError } from '../../../src/rest/errors.js';
import { apiError, type HttpRequest, type Transport } from '../../../src/rest/transport.js';

export type Recording = Record<string, { body?: unknown; code?: number; status?: unknown; message?: string }>;

const keyOf = (request: HttpRequest): string => JSON.stringify([request.method, request.path, request.query ?? {}, request.contentType ?? '', request.body ?? null]);

/** `inner`, writing each answer into `recording`. */
export function recordingTransport(inner: Transport, recording: Recording): Transport {
  return {
    ...inner,
    async request<T>(request: HttpRequest): Promise<T> {
      try {
        const body = await inner.request<T>(request);
        recording[keyOf(request)] = { body };
        return body;
      } catch (error) {
        if (error instanceof ApiError) recording[keyOf(request)] = { code: error.code, status: error.status, message: error.message };
        throw error;
      }
    },
  };
}

/** Answers from `recording`; a request it does not hold fails (the generator changed since). */
export function replayTransport(recording: Recording): Transport {
  const unused = async (): Promise<never> => {
    throw new Error('a replayed recording serves requests only');
  };
  return {
    async request<T>(request: HttpRequest): Promise<T> {
      const answer = recording[keyOf(request)];
      if (!answer) throw new Error(`${request.method} ${request.path}: not in the recording (record again)`);
      if (answer.code === undefined) return answer.body as T;
      throw apiError(answer.code, answer.status === undefined ? (answer.message ?? '') : JSON.stringify(answer.status), `${request.method} ${request.path}`, undefined);
    },
    stream: unused,
    recovered: () => Promise.resolve(),
  };
}
