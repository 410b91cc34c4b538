/**
 * A recursive-descent recognizer for CEL's expression grammar (cel-spec `langdef.md`) with
 * the syntax Kubernetes enables on top of it: optional field selection and indexing
 * (`a.?b`, `a[?i]`), optional list elements and map/message entries (`[?x]`, `{?k: v}`),
 * and the parse-time checks cel-go applies to macros (`has`, `all`, `exists`, `exists_one`,
 * `map`, `filter`, `optMap`, `optFlatMap`, `cel.bind`). It builds no tree: it only decides
 * whether a rule is well formed, and where it is not.
 */
import { CelSyntaxError, tokenize, type Token } from './lexer.js';

/** What the macro checks need to know about a parsed sub-expression. */
type Shape =
  /** A plain identifier (`x`), usable as a macro variable. */
  | 'ident'
  /** An identifier resolved from the root namespace (`.x`). */
  | 'rootIdent'
  /** A qualified name (`a.b`, `.a.b`): a field selection, and a message type name. */
  | 'name'
  /** Any other field selection (`f(x).b`). */
  | 'select'
  | 'other';

const isQualifiedName = (shape: Shape) => shape === 'ident' || shape === 'rootIdent' || shape === 'name';

const reservedWords = new Set([
  'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package',
  'namespace', 'return', 'var', 'void', 'while',
]);
const relations = new Set(['<', '<=', '>=', '>', '==', '!=']);

/** Macros whose listed arguments must be simple names, keyed by `name/argument count`. */
const macroVariables: Record<string, number[]> = {
  'all/2': [0],
  'exists/2': [0],
  'exists_one/2': [0],
  'map/2': [0],
  'map/3': [0],
  'filter/2': [0],
  'optMap/2': [0],
  'optFlatMap/2': [0],
  // two-variable comprehensions
  'all/3': [0, 1],
  'exists/3': [0, 1],
  'existsOne/3': [0, 1],
  'transformList/3': [0, 1],
  'transformList/4': [0, 1],
  'transformMap/3': [0, 1],
  'transformMap/4': [0, 1],
  'transformMapEntry/3': [0, 1],
  'transformMapEntry/4': [0, 1],
};

/** cel-go's default limit on nesting; deeper rules are rejected by the API server too. */
const maxDepth = 250;
const maxInt64 = 2n ** 63n - 1n;
const maxUint64 = 2n ** 64n - 1n;

/** Parses `source` as one CEL expression; throws `CelSyntaxError` where it is malformed. */
export function parseCel(source: string): void {
  new Parser(tokenize(source)).parseAll();
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parseAll(): void {
    if (this.peek().kind === 'eof') throw new CelSyntaxError('empty expression', 0);
    this.expr();
    const rest = this.peek();
    if (rest.kind !== 'eof') throw this.unexpected(rest, 'an operator or the end of the expression');
  }

  private peek(): Token {
    return this.tokens[Math.min(this.pos, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.pos++;
    return token;
  }

  private isPunct(text: string): boolean {
    const token = this.peek();
    return token.kind === 'punct' && token.text === text;
  }

  private accept(text: string): boolean {
    if (!this.isPunct(text)) return false;
    this.pos++;
    return true;
  }

  private expect(text: string, what = `'${text}'`): Token {
    const token = this.peek();
    if (token.kind !== 'punct' || token.text !== text) throw this.unexpected(token, what);
    return this.next();
  }

  private unexpected(token: Token, expected: string): CelSyntaxError {
    const found = token.kind === 'eof' ? 'end of expression' : `'${token.text}'`;
    return new CelSyntaxError(`unexpected ${found}, expected ${expected}`, token.offset);
  }

  private expr(): Shape {
    if (++this.depth > maxDepth) throw new CelSyntaxError(`expression nested more than ${maxDepth} levels deep`, this.peek().offset);
    try {
      const condition = this.binary(0);
      if (!this.accept('?')) return condition;
      this.binary(0);
      this.expect(':', "':' of the conditional");
      this.expr();
      return 'other';
    } finally {
      this.depth--;
    }
  }

  /** Binary operators by precedence: `||`, `&&`, relations, additive, multiplicative. */
  private binary(level: number): Shape {
    if (level === 5) return this.unary();
    let shape = this.binary(level + 1);
    while (this.isBinaryOperator(level)) {
      this.next();
      this.binary(level + 1);
      shape = 'other';
    }
    return shape;
  }

  private isBinaryOperator(level: number): boolean {
    const token = this.peek();
    if (level === 2 && token.kind === 'in') return true;
    if (token.kind !== 'punct') return false;
    switch (level) {
      case 0:
        return token.text === '||';
      case 1:
        return token.text === '&&';
      case 2:
        return relations.has(token.text);
      case 3:
        return token.text === '+' || token.text === '-';
      default:
        return token.text === '*' || token.text === '/' || token.text === '%';
    }
  }

  private unary(): Shape {
    if (this.isPunct('!')) {
      while (this.accept('!'));
      this.member(false);
      return 'other';
    }
    if (this.isPunct('-')) {
      let minuses = 0;
      while (this.accept('-')) minuses++;
      this.member(minuses % 2 === 1);
      return 'other';
    }
    return this.member(false);
  }

  private member(negated: boolean): Shape {
    let shape = this.primary(negated);
    for (;;) {
      if (this.accept('.')) {
        const optional = this.accept('?');
        const field = this.selector();
        if (this.isPunct('(')) {
          if (optional) throw new CelSyntaxError("a method call cannot use optional selection '.?'", field.offset);
          this.checkMacro(field, this.arguments(')'));
          shape = 'other';
        } else {
          shape = optional ? 'other' : isQualifiedName(shape) ? 'name' : 'select';
        }
      } else if (this.accept('[')) {
        this.accept('?');
        this.expr();
        this.expect(']');
        shape = 'other';
      } else if (this.isPunct('{') && isQualifiedName(shape)) {
        this.next();
        this.fieldInitializers();
        shape = 'other';
      } else {
        return shape;
      }
    }
  }

  private primary(negated: boolean): Shape {
    const token = this.peek();
    if (this.accept('.')) {
      this.identifier();
      if (!this.isPunct('(')) return 'rootIdent';
      this.arguments(')');
      return 'other';
    }
    switch (token.kind) {
      case 'ident': {
        this.identifier();
        if (!this.isPunct('(')) return 'ident';
        const args = this.arguments(')');
        if (token.text === 'has' && args.length === 1 && args[0] !== 'name' && args[0] !== 'select') {
          throw new CelSyntaxError('invalid argument to has() macro: it must be a field selection such as has(self.field)', token.offset);
        }
        return 'other';
      }
      case 'int':
        this.checkInt(this.next(), negated);
        return 'other';
      case 'uint':
        this.checkUint(this.next());
        return 'other';
      case 'float':
      case 'string':
      case 'bytes':
      case 'true':
      case 'false':
      case 'null':
        this.next();
        return 'other';
      case 'punct':
        if (this.accept('(')) {
          this.expr();
          this.expect(')');
          return 'other';
        }
        if (this.accept('[')) {
          this.listElements();
          return 'other';
        }
        if (this.accept('{')) {
          this.mapEntries();
          return 'other';
        }
        break;
      default:
        break;
    }
    throw this.unexpected(token, 'an expression');
  }

  /** An identifier in expression position: reserved words are not allowed. */
  private identifier(): Token {
    const token = this.peek();
    if (token.kind !== 'ident') throw this.unexpected(token, 'an identifier');
    if (reservedWords.has(token.text)) throw new CelSyntaxError(`reserved identifier '${token.text}'`, token.offset);
    return this.next();
  }

  /** A field name after `.` or in a message literal: any identifier that is not a keyword. */
  private selector(): Token {
    const token = this.peek();
    if (token.kind !== 'ident') throw this.unexpected(token, 'a field name');
    return this.next();
  }

  /** Comma-separated expressions up to `close`; no trailing comma in calls. */
  private arguments(close: string): Shape[] {
    this.expect('(');
    const args: Shape[] = [];
    if (this.accept(close)) return args;
    do args.push(this.expr());
    while (this.accept(','));
    this.expect(close, `',' or '${close}'`);
    return args;
  }

  private listElements(): void {
    while (!this.accept(']')) {
      this.accept('?');
      this.expr();
      if (!this.accept(',')) {
        this.expect(']', "',' or ']'");
        return;
      }
    }
  }

  private mapEntries(): void {
    while (!this.accept('}')) {
      this.accept('?');
      this.expr();
      this.expect(':', "':' between map key and value");
      this.expr();
      if (!this.accept(',')) {
        this.expect('}', "',' or '}'");
        return;
      }
    }
  }

  private fieldInitializers(): void {
    while (!this.accept('}')) {
      this.accept('?');
      this.selector();
      this.expect(':', "':' after the field name");
      this.expr();
      if (!this.accept(',')) {
        this.expect('}', "',' or '}'");
        return;
      }
    }
  }

  private checkMacro(name: Token, args: Shape[]): void {
    const variables = name.text === 'bind' && args.length === 3 ? [0] : (macroVariables[`${name.text}/${args.length}`] ?? []);
    for (const index of variables) {
      if (args[index] !== 'ident') {
        throw new CelSyntaxError(`argument ${index + 1} of ${name.text}() must be a simple variable name`, name.offset);
      }
    }
  }

  private checkInt(token: Token, negated: boolean): void {
    const value = BigInt(token.text);
    if (value > maxInt64 + (negated ? 1n : 0n)) throw new CelSyntaxError(`integer literal ${token.text} does not fit in 64 bits`, token.offset);
  }

  private checkUint(token: Token): void {
    if (BigInt(token.text.slice(0, -1)) > maxUint64) {
      throw new CelSyntaxError(`unsigned integer literal ${token.text} does not fit in 64 bits`, token.offset);
    }
  }
}
