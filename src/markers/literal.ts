/**
 * Values of `+kubebuilder:default`, `+kubebuilder:example` and `Enum` as written, before the
 * schema they apply to is known. controller-gen guesses a bare `1` to be a number; opgen
 * keeps the text so that a bare `1` on a string field is the string "1".
 *
 * @module
 */

export type Literal =
  | { kind: 'bare'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'list'; items: Literal[] }
  | { kind: 'map'; entries: [string, Literal][] }
  /** `{}`: an empty list or an empty map, whichever the schema wants. */
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown };

/** The minimal schema shape a literal is read against. */
export interface LiteralTarget {
  type?: string;
  items?: LiteralTarget;
  properties?: Record<string, LiteralTarget>;
  additionalProperties?: LiteralTarget | boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

/** Reads a literal as the value the schema describes; a bare word takes the schema's type. */
export function resolveLiteral(literal: Literal, schema: LiteralTarget | undefined): unknown {
  switch (literal.kind) {
    case 'json':
      return literal.value;
    case 'string':
      return literal.value;
    case 'empty':
      return schema?.type === 'array' ? [] : {};
    case 'list':
      return literal.items.map((item) => resolveLiteral(item, schema?.items));
    case 'map': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of literal.entries) {
        const ap = schema?.additionalProperties;
        out[key] = resolveLiteral(value, schema?.properties?.[key] ?? (typeof ap === 'object' ? ap : undefined));
      }
      return out;
    }
    case 'bare':
      return resolveBare(literal.text, schema);
  }
}

function resolveBare(text: string, schema: LiteralTarget | undefined): unknown {
  const type = schema?.type;
  if (type === 'string' && !schema?.['x-kubernetes-int-or-string']) return text;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null' && type !== 'string') return null;
  if (/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  return text;
}
