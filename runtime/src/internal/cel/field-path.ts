/**
 * A validation rule's `fieldPath` as apiextensions-apiserver checks it when a CRD is written:
 * not blank, on one line, and a path from the rule's node through declared fields (`.a.b`,
 * `['a.b']`) or map keys (`.labels.x`, `.labels['x.y']`); no list index, nothing below a
 * field that declares neither properties nor additionalProperties (unknown fields included).
 * The one home of that rule: `opgen manifests`' CEL checker and the memory cluster's CRD
 * admission both report its findings, in the API server's words.
 *
 * @module
 */
import type { CelSchema } from './schema.js';

/** One refusal: the API server's field error detail, and why the path is not valid (its parser's words) where it says more. */
export interface FieldPathFinding {
  detail: 'must be non-empty if specified' | 'must not contain line breaks' | 'must be a valid path';
  reason?: string;
}

/**
 * What the API server refuses in `fieldPath` on the rule's `node`; empty when it accepts it
 * (an empty `fieldPath` is no fieldPath).
 *
 * @example
 * fieldPathFindings({ type: 'object', properties: { a: { type: 'string' } } }, '.b');
 * // [{ detail: 'must be a valid path', reason: 'does not refer to a valid field' }]
 */
export function fieldPathFindings(node: CelSchema, fieldPath: string): FieldPathFinding[] {
  if (fieldPath === '') return [];
  const found: FieldPathFinding[] = [];
  if (fieldPath.trim() === '') found.push({ detail: 'must be non-empty if specified' });
  if (/[\n\r]/.test(fieldPath)) found.push({ detail: 'must not contain line breaks' });
  const reason = pathError(node, fieldPath);
  if (reason !== undefined) found.push({ detail: 'must be a valid path', reason });
  return found;
}

/** The tokens of a path: `.`, `[` and `]` alone, a single-quoted string whole, other text up to the next of those. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if ('.[]'.includes(path[i]!)) {
      out.push(path[i++]!);
      continue;
    }
    let end = i + 1;
    if (path[i] === "'") {
      while (end < path.length && !(path[end] === "'" && path[end - 1] !== '\\')) end++;
      end = Math.min(end + 1, path.length);
    } else {
      while (end < path.length && !'.[]'.includes(path[end]!)) end++;
    }
    out.push(path.slice(i, end));
    i = end;
  }
  return out;
}

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

/** Why `fieldPath` names no place below `node`, or undefined when it does. */
function pathError(node: CelSchema, fieldPath: string): string | undefined {
  const list = tokens(fieldPath);
  let at: CelSchema | undefined = node;
  const step = (name: string): string | undefined => {
    if (at?.properties) {
      at = at.properties[name];
      return at ? undefined : 'does not refer to a valid field';
    }
    if (at?.additionalProperties === undefined || at.additionalProperties === false) return 'does not refer to a valid field';
    at = typeof at.additionalProperties === 'object' ? at.additionalProperties : undefined;
    return undefined;
  };
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    if (token !== '.' && token !== '[') return `expected [ or . but got: ${token}`;
    const name = list[++i];
    if (name === undefined) return 'unexpected end of JSON path';
    if (token === '.') {
      const error = step(name);
      if (error) return error;
      continue;
    }
    if (name.length < 2 || !name.startsWith("'") || !name.endsWith("'")) return `expected single quoted string but got ${name}`;
    let badEscape: string | undefined;
    const key = name.slice(1, -1).replace(/\\./g, (escape) => ESCAPES[escape[1]!] ?? ((badEscape ??= escape), ''));
    if (badEscape !== undefined) return `invalid string literal: invalid escape char ${badEscape}`;
    const error = step(key);
    if (error) return error;
    const close = list[++i];
    if (close === undefined) return 'unexpected end of JSON path';
    if (close !== ']') return `expected ] but got ${close}`;
  }
  return undefined;
}
