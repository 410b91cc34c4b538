/**
 * `has(x.f)` where `x` is not a plain variable or field chain (`has(oldSelf.value().owner)`,
 * `has(self.items[0].name)`): valid CEL that Kubernetes rules use, which cel-js' parser
 * refuses ("has() invalid argument"). Such calls are rewritten to `__has(x, 'f')`, a
 * function with the macro's meaning, before parsing.
 *
 * @module
 */

/** The expression with every `has()` cel-js cannot parse rewritten. */
export function rewriteHas(expression: string): string {
  let out = '';
  let i = 0;
  while (i < expression.length) {
    const found = nextOutsideStrings(expression, i);
    if (found < 0) break;
    const open = found + 'has('.length;
    const close = matchingParen(expression, open - 1);
    if (close < 0) break;
    const argument = expression.slice(open, close).trim();
    const select = /^([\s\S]*)\.\s*([A-Za-z_]\w*)$/.exec(argument);
    out += expression.slice(i, found);
    if (select && !/^[A-Za-z_][\w.\s]*$/.test(select[1]!)) out += `__has(${rewriteHas(select[1]!)}, '${select[2]}')`;
    else out += `has(${rewriteHas(argument)})`;
    i = close + 1;
  }
  return out + expression.slice(i);
}

/** The index of the next `has(` call at or after `from` outside string literals, or -1. */
function nextOutsideStrings(text: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (text.startsWith('has(', i) && !/[\w.]/.test(text[i - 1] ?? ' ')) return i;
  }
  return -1;
}

/** The index of the parenthesis closing the one at `open`, or -1. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
