/**
 * Builds a string that matches a regular expression, for sample values of fields with a
 * `pattern`: the expression is parsed into a small tree (sequences, alternatives, character
 * sets, repetitions) and walked with growing repetition counts until the result matches
 * and fits the length limits.
 */

type CharSet = { ranges: [number, number][]; negated: boolean };

type Node =
  | { kind: 'sequence'; items: Node[] }
  | { kind: 'alternatives'; options: Node[] }
  | { kind: 'set'; set: CharSet }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const empty: Node = { kind: 'sequence', items: [] };
const digit: [number, number][] = [[48, 57]];
const word: [number, number][] = [[48, 57], [65, 90], [95, 95], [97, 122]];
const space: [number, number][] = [[9, 13], [32, 32]];
const letters: [number, number][] = [[65, 90], [97, 122]];
const printable: [number, number][] = [[32, 126]];
/** ASCII stand-ins for the Unicode properties patterns use most. */
const unicodeClasses: Record<string, [number, number][]> = {
  Lu: [[65, 90]],
  Uppercase_Letter: [[65, 90]],
  Ll: [[97, 122]],
  Lowercase_Letter: [[97, 122]],
  N: digit,
  Nd: digit,
  Number: digit,
  Decimal_Number: digit,
};
const preferred = [...'abcxyz0123ABC-_.:/ '].map((c) => c.codePointAt(0) as number);

/**
 * A string matching `regex` with a length between `minLength` and `maxLength`, or
 * `undefined` when none is found. `seed` varies the characters chosen, so that several
 * examples for one pattern can differ.
 */
export function patternExample(regex: RegExp, minLength = 0, maxLength = Infinity, seed = 0): string | undefined {
  let tree: Node;
  try {
    tree = new Parser(regex.source).parse();
  } catch {
    return undefined;
  }
  for (const target of [0, 1, 2, 3, 5, 8, 16, 32, 64, 128, 253]) {
    for (const alternative of ['first', 'last'] as const) {
      const candidate = generate(tree, { target, alternative, seed });
      const length = [...candidate].length;
      if (length >= minLength && length <= maxLength && regex.test(candidate)) return candidate;
    }
  }
  return undefined;
}

interface Strategy {
  target: number;
  alternative: 'first' | 'last';
  seed: number;
}

function generate(node: Node, strategy: Strategy): string {
  switch (node.kind) {
    case 'sequence':
      return node.items.map((item) => generate(item, strategy)).join('');
    case 'alternatives': {
      const option = strategy.alternative === 'first' ? node.options[0] : node.options[node.options.length - 1];
      return option ? generate(option, strategy) : '';
    }
    case 'set':
      return String.fromCodePoint(pickChar(node.set, strategy.seed));
    case 'repeat': {
      const count = Math.min(Math.max(strategy.target, node.min), node.max);
      let result = '';
      for (let i = 0; i < count; i++) result += generate(node.node, strategy);
      return result;
    }
  }
}

function pickChar(set: CharSet, seed: number): number {
  const allowed = (c: number) => set.ranges.some(([lo, hi]) => c >= lo && c <= hi) !== set.negated;
  const rotated = [...preferred.slice(seed % preferred.length), ...preferred.slice(0, seed % preferred.length)];
  const choice = rotated.find(allowed);
  if (choice !== undefined) return choice;
  for (let c = 33; c < 127; c++) if (allowed(c)) return c;
  return set.negated ? 0x263a : (set.ranges[0]?.[0] ?? 97);
}

/** A parser for the JavaScript regular-expression syntax `compilePattern` produces. */
class Parser {
  private i = 0;

  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternatives();
    if (this.i < this.source.length) throw new Error(`unexpected ${this.source[this.i]}`);
    return node;
  }

  private peek(): string | undefined {
    return this.source[this.i];
  }

  private alternatives(): Node {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as Node) : { kind: 'alternatives', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      items.push(this.quantified(this.atom()));
    }
    return { kind: 'sequence', items };
  }

  private quantified(node: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.source.slice(this.i))) {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.i)) as RegExpExecArray;
      this.i += match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    } else {
      return node;
    }
    if (this.peek() === '?') this.i++;
    return this.quantified({ kind: 'repeat', node, min, max });
  }

  private atom(): Node {
    const c = this.source[this.i++] as string;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return { kind: 'set', set: this.charClass() };
      case '.':
        return { kind: 'set', set: { ranges: printable, negated: false } };
      case '^':
      case '$':
        return empty;
      case '\\':
        return this.escape(false) ?? empty;
      default:
        return literal(c.codePointAt(0) as number);
    }
  }

  private group(): Node {
    let assertion = false;
    if (this.peek() === '?') {
      const rest = this.source.slice(this.i);
      const prefix = /^\?(:|=|!|<=|<!|<[A-Za-z_]\w*>)/.exec(rest);
      if (!prefix) throw new Error('unsupported group');
      assertion = /^\?(=|!|<=|<!)$/.test(prefix[0]);
      this.i += prefix[0].length;
    }
    const inner = this.alternatives();
    if (this.source[this.i++] !== ')') throw new Error('unbalanced group');
    return assertion ? empty : inner;
  }

  private charClass(): CharSet {
    const set: CharSet = { ranges: [], negated: false };
    if (this.peek() === '^') {
      set.negated = true;
      this.i++;
    }
    while (this.i < this.source.length && this.peek() !== ']') {
      const start = this.classAtom();
      if (typeof start === 'number' && this.peek() === '-' && this.source[this.i + 1] !== ']' && this.i + 1 < this.source.length) {
        this.i++;
        const end = this.classAtom();
        if (typeof end === 'number') {
          set.ranges.push([start, end]);
          continue;
        }
        set.ranges.push([start, start], [45, 45], ...end);
        continue;
      }
      if (typeof start === 'number') set.ranges.push([start, start]);
      else set.ranges.push(...start);
    }
    if (this.source[this.i++] !== ']') throw new Error('unterminated class');
    return set;
  }

  /** One character of a class, or the ranges of a class escape such as `\d`. */
  private classAtom(): number | [number, number][] {
    const c = this.source[this.i++] as string;
    if (c !== '\\') return c.codePointAt(0) as number;
    const node = this.escape(true);
    const ranges = node?.kind === 'set' ? node.set.ranges : [];
    const [only] = ranges;
    return ranges.length === 1 && only && only[0] === only[1] ? only[0] : ranges;
  }

  private escape(inClass: boolean): Node | undefined {
    const c = this.source[this.i++] as string;
    const set = (ranges: [number, number][], negated = false): Node => ({
      kind: 'set',
      set: { ranges: negated ? complement(ranges) : ranges, negated: false },
    });
    switch (c) {
      case 'd':
        return set(digit);
      case 'D':
        return set(digit, true);
      case 'w':
        return set(word);
      case 'W':
        return set(word, true);
      case 's':
        return set(space);
      case 'S':
        return set(space, true);
      case 'b':
        return inClass ? literal(8) : undefined;
      case 'B':
        return undefined;
      case 'n':
        return literal(10);
      case 't':
        return literal(9);
      case 'r':
        return literal(13);
      case 'f':
        return literal(12);
      case 'v':
        return literal(11);
      case 'x':
        return this.hexEscape(2);
      case 'u':
        return this.peek() === '{' ? this.bracedHex() : this.hexEscape(4);
      case 'p':
      case 'P':
        return set(unicodeClasses[this.braced()] ?? letters, c === 'P');
      default:
        if (/[1-9]/.test(c)) throw new Error('backreference');
        if (c === '0') return literal(0);
        return literal(c.codePointAt(0) as number);
    }
  }

  private hexEscape(digits: number): Node {
    const hex = this.source.slice(this.i, this.i + digits);
    this.i += digits;
    return literal(Number.parseInt(hex, 16));
  }

  private bracedHex(): Node {
    const end = this.source.indexOf('}', this.i);
    const value = Number.parseInt(this.source.slice(this.i + 1, end), 16);
    this.i = end + 1;
    return literal(value);
  }

  /** The name in `{...}` after `\p`, consumed. */
  private braced(): string {
    if (this.peek() !== '{') return this.source[this.i++] ?? '';
    const end = this.source.indexOf('}', this.i);
    const name = this.source.slice(this.i + 1, end);
    this.i = end + 1;
    return name;
  }
}

/** The printable ASCII characters outside `ranges`. */
function complement(ranges: [number, number][]): [number, number][] {
  const result: [number, number][] = [];
  let next = 32;
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (lo > next) result.push([next, Math.min(lo - 1, 126)]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 126) result.push([next, 126]);
  return result;
}

function literal(codePoint: number): Node {
  return { kind: 'set', set: { ranges: [[codePoint, codePoint]], negated: false } };
}
