/**
 * The lexical grammar of CEL (cel-spec `langdef.md`): identifiers, keywords, numbers,
 * strings and bytes in all their quote/raw forms, operators and comments.
 */

export type TokenKind =
  | 'ident'
  | 'int'
  | 'uint'
  | 'float'
  | 'string'
  | 'bytes'
  | 'true'
  | 'false'
  | 'null'
  | 'in'
  | 'punct'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** The source text (for `punct`, the operator itself). */
  text: string;
  /** Offset of the first character in the rule. */
  offset: number;
}

/** A syntax error at an offset of the rule. */
export class CelSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const keywords = new Set(['true', 'false', 'null', 'in']);
const punctuation = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '+', '-', '*', '/', '%', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];
const simpleEscapes = new Set(['a', 'b', 'f', 'n', 'r', 't', 'v', '"', "'", '\\', '?', '`']);

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /[0-9a-fA-F]/.test(c);
const isIdentStart = (c: string | undefined) => c !== undefined && /[_a-zA-Z]/.test(c);
const isIdentPart = (c: string | undefined) => c !== undefined && /[_a-zA-Z0-9]/.test(c);

/** Splits a CEL expression into tokens, ending with an `eof` token. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (source.startsWith('//', i)) {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
      continue;
    }
    const start = i;
    const quotePrefix = /^([bB][rR]?|[rR])?("|')/.exec(source.slice(i, i + 3));
    if (quotePrefix && (quotePrefix[1] || c === '"' || c === "'")) {
      const prefix = quotePrefix[1] ?? '';
      i = scanString(source, i + prefix.length, /r/i.test(prefix));
      tokens.push({ kind: /b/i.test(prefix) ? 'bytes' : 'string', text: source.slice(start, i), offset: start });
      continue;
    }
    if (isIdentStart(c)) {
      while (isIdentPart(source[i])) i++;
      const text = source.slice(start, i);
      tokens.push({ kind: keywords.has(text) ? (text as TokenKind) : 'ident', text, offset: start });
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(source[i + 1]))) {
      i = scanNumber(source, i, tokens);
      continue;
    }
    const op = punctuation.find((p) => source.startsWith(p, i));
    if (!op) {
      const hint = c === '=' ? " (use '==' to compare)" : c === '&' ? " (use '&&')" : c === '|' ? " (use '||')" : '';
      throw new CelSyntaxError(`unexpected character '${c}'${hint}`, start);
    }
    tokens.push({ kind: 'punct', text: op, offset: start });
    i += op.length;
  }
  tokens.push({ kind: 'eof', text: '', offset: source.length });
  return tokens;
}

function scanNumber(source: string, start: number, tokens: Token[]): number {
  let i = start;
  if (source[i] === '0' && (source[i + 1] === 'x' || source[i + 1] === 'X')) {
    i += 2;
    if (!isHex(source[i])) throw new CelSyntaxError('hexadecimal literal needs digits after 0x', start);
    while (isHex(source[i])) i++;
  } else {
    let float = false;
    while (isDigit(source[i])) i++;
    if (source[i] === '.' && isDigit(source[i + 1])) {
      float = true;
      i++;
      while (isDigit(source[i])) i++;
    }
    if ((source[i] === 'e' || source[i] === 'E') && (isDigit(source[i + 1]) || (/[+-]/.test(source[i + 1] ?? '') && isDigit(source[i + 2])))) {
      float = true;
      i += source[i + 1] === '+' || source[i + 1] === '-' ? 2 : 1;
      while (isDigit(source[i])) i++;
    }
    if (float) {
      tokens.push({ kind: 'float', text: source.slice(start, i), offset: start });
      return i;
    }
  }
  if (source[i] === 'u' || source[i] === 'U') {
    i++;
    tokens.push({ kind: 'uint', text: source.slice(start, i), offset: start });
    return i;
  }
  tokens.push({ kind: 'int', text: source.slice(start, i), offset: start });
  return i;
}

/** Scans a quoted literal whose opening quote is at `i`; returns the offset after it. */
function scanString(source: string, i: number, raw: boolean): number {
  const open = i;
  const quote = source[i] as string;
  const triple = source.startsWith(quote.repeat(3), i);
  const closing = triple ? quote.repeat(3) : quote;
  i += closing.length;
  for (;;) {
    if (i >= source.length) throw new CelSyntaxError('unterminated string literal', open);
    if (source.startsWith(closing, i)) return i + closing.length;
    const c = source[i];
    if (!triple && (c === '\n' || c === '\r')) throw new CelSyntaxError('newline in string literal (use a triple-quoted string)', open);
    // In a raw string a backslash is an ordinary character, even before a quote.
    i = c === '\\' && !raw ? scanEscape(source, i) : i + 1;
  }
}

function scanEscape(source: string, i: number): number {
  const kind = source[i + 1];
  if (kind !== undefined && simpleEscapes.has(kind)) return i + 2;
  const hexRun = (from: number, n: number) => {
    for (let k = 0; k < n; k++) if (!isHex(source[from + k])) throw new CelSyntaxError(`invalid escape sequence '\\${kind}'`, i);
    return from + n;
  };
  if (kind === 'x' || kind === 'X') return hexRun(i + 2, 2);
  if (kind === 'u') return hexRun(i + 2, 4);
  if (kind === 'U') return hexRun(i + 2, 8);
  if (kind !== undefined && /[0-3]/.test(kind) && /[0-7]/.test(source[i + 2] ?? '') && /[0-7]/.test(source[i + 3] ?? '')) return i + 4;
  throw new CelSyntaxError(`invalid escape sequence '\\${kind ?? ''}'`, i);
}
