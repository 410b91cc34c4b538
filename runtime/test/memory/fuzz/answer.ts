/**
 * A write's answer as the fuzz run compares it: the HTTP code, and for an error its reason,
 * message and causes as a set (field, type and message, the CEL compiler's own words masked
 * as the differential suite masks them); for a success the object the server stores (a dry
 * run's answer is that object), normalized as the differential suite normalizes recordings.
 */
import { ApiError } from '../../../src/rest/errors.js';
import type { HttpRequest, Transport } from '../../../src/rest/transport.js';
import { COMPILER_MASK, COMPILER_TEXT } from '../differential/differences.js';
import { normalize } from '../differential/normalize.js';
import { MANAGER, baseName, type FuzzCase } from './cases.js';

export interface Answer {
  code: number | '2xx';
  reason?: string;
  message?: string;
  causes?: string[];
  object?: unknown;
}

interface StatusBody {
  reason?: string;
  message?: string;
  details?: { causes?: Array<{ reason?: string; field?: string; message?: string }> };
}

/** The CEL compiler's own words are masked (docs/memory-cluster-differences.md, cel-compile-error-text). */
const mask = (text: string | undefined): string | undefined => text?.replace(COMPILER_TEXT, COMPILER_MASK);

/** Sends `request`; never throws for an API error. */
export async function answer(transport: Transport, request: HttpRequest): Promise<Answer> {
  try {
    const body = await transport.request<unknown>({ ...request, timeoutMs: 60_000 });
    const [normalized] = normalize([{ step: '', status: '2xx', body }]);
    return { code: '2xx', object: normalized!.body };
  } catch (error) {
    if (!(error instanceof ApiError)) return { code: -1, message: error instanceof Error ? error.message : String(error) };
    // Normalized as the differential suite's recordings: uids, and what an object quoted in a message was assigned.
    const [normalized] = normalize([{ step: '', status: error.code, body: error.status }]);
    const status = normalized!.body as StatusBody | undefined;
    const causes = (status?.details?.causes ?? []).map((cause) => `${cause.reason} ${cause.field}: ${mask(cause.message)}`).sort();
    // Several causes: the message lists them in the API server's random order; the set is in `causes`.
    const message = causes.length > 1 ? undefined : mask(status?.message ?? error.message);
    return { code: error.code, reason: status?.reason ?? error.reason, ...(message !== undefined && { message }), ...(causes.length > 0 && { causes }) };
  }
}

/** The request a case sends to one side, whose base object is at `baseVersion`. */
export function requestOf(fuzz: FuzzCase, baseVersion: string | undefined): HttpRequest {
  const { target, object, query } = fuzz;
  const base = baseName(target);
  const named = (name: string, extra: Record<string, unknown> = {}) => ({ ...object, metadata: { name, ...extra } });
  if (fuzz.operation === 'create' || baseVersion === undefined) {
    return { method: 'POST', path: target.collection, body: named(`c${fuzz.index}`), query };
  }
  const path = `${target.collection}/${base}`;
  if (fuzz.operation === 'update') return { method: 'PUT', path, body: named(base, { resourceVersion: baseVersion }), query };
  if (fuzz.operation === 'merge patch') {
    const { apiVersion: _apiVersion, kind: _kind, ...fields } = object;
    return { method: 'PATCH', path, contentType: 'application/merge-patch+json', body: fields, query };
  }
  return { method: 'PATCH', path, contentType: 'application/apply-patch+yaml', body: named(base), query: { ...query, fieldManager: MANAGER, force: 'true' } };
}

/** One line that reruns a case. */
export function reproduction(seed: number, index: number): string {
  return `FUZZ_SEED=${seed} FUZZ_ONLY=${index} npx vitest run --project suite runtime/test/memory/fuzz`;
}
