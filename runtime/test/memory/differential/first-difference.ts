/**
 * Where two recordings first differ, in a line: for STATUS.md, so the owner of a failing
 * scenario sees what to fix without running the suite.
 */
export function firstDifference(real: unknown, memory: unknown, path = ''): string | undefined {
  if (JSON.stringify(real) === JSON.stringify(memory)) return undefined;
  const bothObjects = typeof real === 'object' && real !== null && typeof memory === 'object' && memory !== null;
  if (bothObjects && Array.isArray(real) === Array.isArray(memory)) {
    if (Array.isArray(real) && Array.isArray(memory) && real.length !== memory.length) {
      return `${path}: ${real.length} items on the API server, ${memory.length} on the memory cluster`;
    }
    const a = real as Record<string, unknown>;
    const b = memory as Record<string, unknown>;
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const found = firstDifference(a[key], b[key], Array.isArray(real) ? `${path}[${key}]` : `${path}.${key}`);
      if (found) return found;
    }
  }
  return `${path}: API server ${show(real)}, memory cluster ${show(memory)}`;
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}
