/**
 * controller-gen's value grammar: strings bare, in `"…"` (Go escapes) or in backticks;
 * lists as `a;b;c` or `{a,b,c}`; maps as `{key: value, …}`; numbers and booleans.
 *
 * @module
 */
import type { Literal } from './literal.js';
import type { ValueType } from './registry.js';

/** A JSON value read from inside a marker's arguments, with where its text starts. */
export interface JsonArg {
  value: unknown;
  /** The JSON as written. */
  raw: string;
  /** Offset of `raw` in the marker's text (after the `+`). */
  offset: number;
}

/** A grammar error; `offset` is where in the text it happened. */
export class ScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * Reads values from marker text. `inArgs` is true inside `key=value,…` lists, where a bare
 * value ends at a top-level comma; a marker's single value runs to the end of the line.
 */
export class Scanner {
  pos = 0;

  constructor(
    readonly text: string,
    readonly base = 0,
  ) {}

  /** Starts reading at `pos` (past a separator the caller has seen). */
  withStart(pos: number): this {
    this.pos = pos;
    return this;
  }

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  fail(message: string, at = this.pos): never {
    throw new ScanError(message, this.base + at);
  }

  expect(char: string): void {
    this.skipSpace();
    if (this.peek() !== char) this.fail(`expected "${char}"${this.done ? ' at end of marker' : `, found "${this.peek()}"`}`);
    this.pos++;
  }

  /** Reads one value of the given type. */
  value(type: ValueType, inArgs: boolean): unknown {
    this.skipSpace();
    switch (type) {
      case 'string':
        return this.string(inArgs ? ',' : '');
      case 'int': {
        const start = this.pos;
        const text = this.bare(inArgs ? ',' : '');
        if (!/^[-+]?\d+$/.test(text)) this.fail(`expected an integer, found "${text}"`, start);
        return Number(text);
      }
      case 'number': {
        const start = this.pos;
        const text = this.bare(inArgs ? ',' : '');
        if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text)) this.fail(`expected a number, found "${text}"`, start);
        return Number(text);
      }
      case 'bool': {
        const start = this.pos;
        const text = this.bare(inArgs ? ',' : '');
        if (text !== 'true' && text !== 'false') this.fail(`expected true or false, found "${text}"`, start);
        return text === 'true';
      }
      case 'stringList':
        return this.list(inArgs, (stops) => this.string(stops));
      case 'anyList':
        return this.list(inArgs, (stops) => this.literal(stops));
      case 'any':
        return this.guessed(inArgs ? ',' : '');
      case 'json': {
        const start = this.pos;
        const rest = this.text.slice(this.pos).trim();
        this.pos = this.text.length;
        try {
          return { kind: 'json', value: JSON.parse(rest) } satisfies Literal;
        } catch {
          return this.fail(`expected JSON, found "${rest}" (strings need double quotes)`, start);
        }
      }
      case 'jsonArg':
        return this.jsonArg();
    }
  }

  /**
   * A JSON object or array up to its matching bracket, so that the commas inside it do not
   * end the argument; brackets inside JSON strings do not count.
   */
  private jsonArg(): JsonArg {
    const start = this.pos;
    const open = this.peek();
    if (open !== '{' && open !== '[') this.fail(`expected a JSON object or array, found "${this.text.slice(start)}"`);
    const closers: string[] = [];
    while (!this.done) {
      const c = this.peek();
      if (c === '"') {
        this.quoted();
        continue;
      }
      if (c === '{' || c === '[') closers.push(c === '{' ? '}' : ']');
      else if (c === '}' || c === ']') {
        if (closers.pop() !== c) this.fail(`unbalanced "${c}" in JSON`);
        if (closers.length === 0) {
          this.pos++;
          break;
        }
      }
      this.pos++;
    }
    if (closers.length) this.fail(`unclosed "${open}" in JSON`, start);
    const raw = this.text.slice(start, this.pos);
    try {
      return { value: JSON.parse(raw), raw, offset: this.base + start };
    } catch (error) {
      return this.fail(`invalid JSON: ${(error as Error).message.split('\n')[0]}`, start);
    }
  }

  private list<T>(inArgs: boolean, item: (stops: string) => T): T[] {
    this.skipSpace();
    const items: T[] = [];
    if (this.peek() === '{') {
      this.pos++;
      this.skipSpace();
      if (this.peek() === '}') {
        this.pos++;
        return items;
      }
      for (;;) {
        items.push(item(',}'));
        this.skipSpace();
        const c = this.peek();
        this.pos++;
        if (c === '}') return items;
        if (c !== ',') this.fail(c ? `expected "," or "}" in list, found "${c}"` : 'unclosed "{" in list', this.pos - 1);
      }
    }
    // `a;b;c`: inside `key=value` arguments it ends at the comma that starts the next one.
    for (;;) {
      items.push(item(inArgs ? ',;' : ';'));
      if (this.peek() !== ';') return items;
      this.pos++;
    }
  }

  /** A string: quoted, backticked or bare up to one of `stops` (or the end). */
  string(stops: string): string {
    this.skipSpace();
    const c = this.peek();
    if (c === '"') return this.quoted();
    if (c === '`') return this.backticked();
    return this.bare(stops);
  }

  private quoted(): string {
    const start = this.pos;
    this.pos++;
    while (!this.done && this.peek() !== '"') {
      if (this.peek() === '\\') this.pos++;
      this.pos++;
    }
    if (this.done) this.fail('unclosed double quote', start);
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      return this.fail('invalid escape in quoted string', start);
    }
  }

  private backticked(): string {
    const start = this.pos;
    const end = this.text.indexOf('`', this.pos + 1);
    if (end < 0) this.fail('unclosed backtick', start);
    this.pos = end + 1;
    return this.text.slice(start + 1, end);
  }

  /** Text up to a stop character at nesting depth 0 (or the end), trimmed. */
  private bare(stops: string): string {
    const start = this.pos;
    let depth = 0;
    while (!this.done) {
      const c = this.peek();
      if (depth === 0 && stops.includes(c)) break;
      if (c === '{' || c === '[' || c === '(') depth++;
      if (c === '}' || c === ']' || c === ')') depth--;
      this.pos++;
    }
    return this.text.slice(start, this.pos).trim();
  }

  /**
   * controller-gen's guessed literal where a legacy list may stand (a marker's value, a map
   * value, an item of a `{…}` list): `a;b;c` is a list of guessed items, as `{a,b,c}` is.
   */
  guessed(stops: string): Literal {
    const first = this.literal(`${stops};`);
    this.skipSpace();
    if (this.peek() !== ';') return first;
    const items = [first];
    while (this.peek() === ';') {
      this.pos++;
      items.push(this.literal(`${stops};`));
      this.skipSpace();
    }
    return { kind: 'list', items };
  }

  /** controller-gen's guessed literal, one item: `;` ends it like the `stops`. */
  literal(stops: string): Literal {
    this.skipSpace();
    const c = this.peek();
    if (c === '"') return { kind: 'string', value: this.quoted() };
    if (c === '`') return { kind: 'string', value: this.backticked() };
    if (c === '{') return this.braced();
    return { kind: 'bare', text: this.bare(stops) };
  }

  private braced(): Literal {
    const open = this.pos;
    this.pos++;
    this.skipSpace();
    if (this.peek() === '}') {
      this.pos++;
      return { kind: 'empty' };
    }
    // A map when the first item is followed by a colon.
    const save = this.pos;
    const key = this.peek() === '"' ? this.quoted() : this.bare(':,}');
    this.skipSpace();
    if (this.peek() === ':') {
      const entries: [string, Literal][] = [];
      let k = key;
      for (;;) {
        this.expect(':');
        entries.push([k, this.guessed(',}')]);
        this.skipSpace();
        const c = this.peek();
        this.pos++;
        if (c === '}') return { kind: 'map', entries };
        if (c !== ',') this.fail(c ? `expected "," or "}" in map, found "${c}"` : 'unclosed "{" in map', c ? this.pos - 1 : open);
        this.skipSpace();
        k = this.peek() === '"' ? this.quoted() : this.bare(':,}');
      }
    }
    this.pos = save;
    const items: Literal[] = [];
    for (;;) {
      // controller-gen reads `{1;1,2;3}` as [[1,1],[2,3]]: an item may be a legacy list.
      items.push(this.guessed(',}'));
      this.skipSpace();
      const c = this.peek();
      this.pos++;
      if (c === '}') return { kind: 'list', items };
      if (c !== ',') this.fail(c ? `expected "," or "}" in list, found "${c}"` : 'unclosed "{" in list', c ? this.pos - 1 : open);
    }
  }
}
