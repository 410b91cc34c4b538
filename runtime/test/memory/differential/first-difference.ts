/**
 * Where two recordings first differ, in a line: for STATUS.md, so the owner of a failing
 * scenario sees what to fix without running the suite. Key order does not count (as in
 * the suite's comparison); an answer of another kind (an error Status instead of the
 * object) is told as such, with the Status's message.
 */
export function firstDifference(real: unknown, memory: unknown, path = ''): string | undefined {
  const bothObjects = typeof real === 'object' && real !== null && typeof memory === 'object' && memory !== null;
  if (!bothObjects) return real === memory ? undefined : `${path}: API server ${show(real)}, memory cluster ${show(memory)}`;
  if (Array.isArray(real) !== Array.isArray(memory)) return `${path}: API server ${show(real)}, memory cluster ${show(memory)}`;
  if (Array.isArray(real) && Array.isArray(memory) && real.length !== memory.length) {
    return `${path}: ${real.length} items on the API server, ${memory.length} on the memory cluster`;
  }
  const a = real as Record<string, unknown>;
  const b = memory as Record<string, unknown>;
  if (a.kind !== b.kind && (a.kind === 'Status' || b.kind === 'Status')) return `${path}: API server ${summary(a)}, memory cluster ${summary(b)}`;
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const found = firstDifference(a[key], b[key], Array.isArray(real) ? `${path}[${key}]` : `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

function summary(object: Record<string, unknown>): string {
  if (object.kind === 'Status') return `Status ${String(object.status)} ${String(object.code ?? '')} ${String(object.reason ?? '')}: ${show(object.message)}`;
  return `${String(object.kind)} ${show((object.metadata as { name?: string } | undefined)?.name)}`;
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
