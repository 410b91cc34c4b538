import type { AdmissionRequest, ConversionRequest } from './types.js';

/** The review versions the server accepts; the response is written in the request's. */
export const ADMISSION_VERSIONS = ['admission.k8s.io/v1', 'admission.k8s.io/v1beta1'];
export const CONVERSION_VERSIONS = ['apiextensions.k8s.io/v1', 'apiextensions.k8s.io/v1beta1'];

type Parsed<R> = { apiVersion: string; request: R } | { error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseReview(body: Buffer, kind: string, versions: string[]): { apiVersion: string; request: Record<string, unknown> } | { error: string } {
  let review: unknown;
  try {
    review = JSON.parse(body.toString('utf8'));
  } catch (error) {
    return { error: `the body is not JSON: ${(error as Error).message}` };
  }
  if (!isRecord(review)) return { error: `expected a ${kind} object` };
  if (review.kind !== kind || typeof review.apiVersion !== 'string' || !versions.includes(review.apiVersion)) {
    return { error: `expected a ${kind} of ${versions.join(' or ')}, got ${String(review.kind)} ${String(review.apiVersion)}` };
  }
  if (!isRecord(review.request) || typeof review.request.uid !== 'string' || review.request.uid === '') {
    return { error: `the ${kind} has no request with a uid` };
  }
  return { apiVersion: review.apiVersion, request: review.request };
}

/** An AdmissionReview's request, or why the body is not one. */
export function parseAdmissionReview(body: Buffer): Parsed<AdmissionRequest> {
  const parsed = parseReview(body, 'AdmissionReview', ADMISSION_VERSIONS);
  if ('error' in parsed) return parsed;
  const operations = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
  if (typeof parsed.request.operation !== 'string' || !operations.includes(parsed.request.operation)) {
    return { error: `the AdmissionReview's operation must be one of ${operations.join(', ')}` };
  }
  return { apiVersion: parsed.apiVersion, request: parsed.request as unknown as AdmissionRequest };
}

/** A ConversionReview's request, or why the body is not one. */
export function parseConversionReview(body: Buffer): Parsed<ConversionRequest> {
  const parsed = parseReview(body, 'ConversionReview', CONVERSION_VERSIONS);
  if ('error' in parsed) return parsed;
  const { desiredAPIVersion, objects } = parsed.request;
  if (typeof desiredAPIVersion !== 'string' || !Array.isArray(objects) || !objects.every(isRecord)) {
    return { error: 'the ConversionReview needs desiredAPIVersion and a list of objects' };
  }
  return { apiVersion: parsed.apiVersion, request: parsed.request as unknown as ConversionRequest };
}
