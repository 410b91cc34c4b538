/**
 * `metav1.Time`: RFC 3339 with second precision, the form the API server writes back, so
 * a value read and written again compares equal.
 */
export function formatTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * `metav1.MicroTime`: RFC 3339 with exactly six fractional digits; the API server's parser
 * rejects other widths for MicroTime fields (Lease renewTime, Event eventTime).
 */
export function formatMicroTime(date: Date): string {
  return date.toISOString().replace(/Z$/, '000Z');
}
