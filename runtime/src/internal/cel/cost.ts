import type { SizeNode } from './cost-model.js';

/**
 * The worst-case cost of a type-checked CEL expression, estimated as kube-apiserver 1.36 does
 * it at CRD install (cel-go's static estimator with Kubernetes' size estimator and library
 * costs, `has()` free): every node costs what cel-go charges for it, comprehensions their
 * range's largest size times each iteration, string functions in proportion to their
 * strings' largest length. The numbers are the API server's, so its verdict is known before
 * `kubectl apply`. Written from the behaviour of cel-go's `checker/cost.go` and apiserver's
 * `library/cost.go`; the AST is cel-js's, with the type of every node from its checker.
 *
 * @module
 */

/** cel-js AST node, as its parser builds it and its checker annotates it. */
export interface CelNode {
  op: string;
  args: unknown;
  pos?: number;
  checkedType?: { name: string; kind: string; valueType?: { name: string; kind: string } };
}

interface Size {
  min: number;
  max: number;
}

/** uint64's largest value: cel-go saturates every sum and product here. */
const MAX = 2 ** 64 - 1;
const unknownSize: Size = { min: 0, max: MAX };
const stringTraversal = 0.1;
const regexLength = 0.25;

const add = (a: number, b: number): number => Math.min(a + b, MAX);
const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : Math.min(a * b, MAX));
const byFactor = (x: number, f: number): number => Math.min(Math.ceil(x * f), MAX);
const sizeOf = (s: Size | undefined): Size => s ?? unknownSize;
const union = (a: Size, b: Size): Size => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });

interface Entry {
  container: 'list' | 'map';
  key: Size;
  val: Size;
}

interface LocalVar {
  path: string[] | undefined;
  size?: Size;
}

/** The estimate of one expression, and the unbounded schema nodes it was made from. */
export interface CostEstimate {
  /** cel-go's `MaxCost`. */
  max: number;
  /** Schema nodes without a bound whose estimated size entered the estimate. */
  unbounded: Set<SizeNode>;
}

/** Estimates `ast` (checked by cel-js) on a node whose size model is `self`. */
export function estimateCost(ast: CelNode, self: SizeNode): CostEstimate {
  const estimator = new Estimator(self);
  return { max: estimator.cost(ast), unbounded: estimator.unbounded };
}

const scalarTypes = new Set(['bool', 'double', 'int', 'uint', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);

function typeName(node: CelNode): string {
  return node.checkedType?.name ?? 'dyn';
}
function kind(node: CelNode): string {
  const t = node.checkedType;
  if (!t) return 'dyn';
  if (t.kind === 'message') return scalarTypes.has(t.name) ? 'scalar' : 'struct';
  if (t.kind === 'primitive') return t.name === 'string' || t.name === 'bytes' ? t.name : 'scalar';
  return t.kind;
}
function isScalar(node: CelNode): boolean {
  const name = typeName(node);
  if (scalarTypes.has(name)) return true;
  const optional = /^optional<(.*)>$/.exec(name);
  return optional !== null && scalarTypes.has(optional[1]!);
}

const macros = new Set(['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter']);

class Estimator {
  readonly unbounded = new Set<SizeNode>();
  private readonly paths = new Map<CelNode, string[]>();
  private readonly sizes = new Map<CelNode, Size>();
  private readonly entries = new Map<CelNode, Entry>();
  private readonly locals = new Map<string, LocalVar[]>();

  constructor(private readonly root: SizeNode) {}

  cost(node: CelNode): number {
    switch (node.op) {
      case 'value':
        return 0;
      case 'id': {
        const local = this.local(node.args as string);
        this.paths.set(node, local ? (local.path ?? []) : [node.args as string]);
        return 1;
      }
      case '.':
        return this.select(node);
      case '.?': {
        const [operand] = node.args as [CelNode, string];
        return add(1, this.cost(operand));
      }
      case '[]':
        return this.index(node);
      case '[?]': {
        const [left, right] = node.args as [CelNode, CelNode];
        return add(1, add(this.cost(left), this.cost(right)));
      }
      case 'list':
        return this.list(node);
      case 'map':
        return this.map(node);
      case '&&':
      case '||': {
        const [l, r] = node.args as [CelNode, CelNode];
        return add(this.cost(l), this.cost(r));
      }
      case '?:':
        return this.conditional(node);
      case '!_':
      case '-_': {
        const operand = unary(node);
        // cel-go's parser makes `-1` one literal.
        if (node.op === '-_' && operand.op === 'value') return 0;
        return add(1, this.cost(operand));
      }
      case 'call':
      case 'rcall':
        return this.call(node);
      default: {
        if (!Array.isArray(node.args)) return 1;
        const args = node.args as CelNode[];
        const costs = args.map((a) => this.cost(a));
        return this.operator(node, args, costs);
      }
    }
  }

  private local(name: string): LocalVar | undefined {
    const stack = this.locals.get(name);
    return stack?.[stack.length - 1];
  }

  private path(node: CelNode): string[] | undefined {
    if (node.op === 'id') {
      const local = this.local(node.args as string);
      if (local) return local.path;
    }
    return this.paths.get(node);
  }

  /** Kubernetes' size estimator: the schema node a path leads to, from the rule's node. */
  private estimateSize(path: string[] | undefined): Size | undefined {
    if (!path || path.length === 0) return undefined;
    let at: SizeNode | undefined = this.root;
    for (const step of path.slice(1)) {
      if (step === '@items' || step === '@values') at = at.elem;
      else if (step === '@keys') at = at.key;
      else at = at.field?.(step);
      if (!at) return undefined;
    }
    if (at.unbounded) this.unbounded.add(at);
    return { min: 0, max: at.maxElements };
  }

  private computeSize(node: CelNode): Size | undefined {
    const computed = this.sizes.get(node);
    if (computed) return computed;
    if (node.op === 'value') {
      const v = node.args;
      if (typeof v === 'string') return fixed([...v].length);
      if (v instanceof Uint8Array) return fixed(v.length);
      return fixed(1);
    }
    if (node.op === '-_' && unary(node).op === 'value') return fixed(1);
    if (node.op === 'list' || node.op === 'map') return fixed((node.args as unknown[]).length);
    const estimated = this.estimateSize(this.path(node));
    if (estimated) return estimated;
    if (isScalar(node)) return fixed(1);
    if (node.op === 'id') return this.local(node.args as string)?.size;
    return undefined;
  }

  private size(node: CelNode): Size {
    return sizeOf(this.computeSize(node));
  }

  private entry(node: CelNode): Entry | undefined {
    return this.entries.get(node);
  }

  private select(node: CelNode): number {
    const [operand, field] = node.args as [CelNode, string];
    let sum = this.cost(operand);
    const k = kind(operand);
    if (k === 'map' || k === 'struct') sum = add(sum, 1);
    this.paths.set(node, [...(this.path(operand) ?? []), field]);
    return sum;
  }

  private index(node: CelNode): number {
    const [left, right] = node.args as [CelNode, CelNode];
    const sum = add(1, add(this.cost(left), this.cost(right)));
    const isList = kind(left) === 'list';
    const entry = this.entry(left);
    this.paths.set(node, [...(this.path(left) ?? []), isList ? '@items' : '@values']);
    const size = entry?.val ?? this.computeSize(node);
    if (size) this.sizes.set(node, size);
    return sum;
  }

  private list(node: CelNode): number {
    const elements = node.args as CelNode[];
    let sum = 10;
    let val: Size = elements.length ? { min: MAX, max: 0 } : { min: 0, max: 0 };
    for (const element of elements) {
      sum = add(sum, this.cost(element));
      val = union(val, this.size(element));
    }
    this.entries.set(node, { container: 'list', key: fixed(1), val });
    return sum;
  }

  private map(node: CelNode): number {
    const pairs = node.args as [CelNode, CelNode][];
    let sum = 30;
    let key: Size = pairs.length ? { min: MAX, max: 0 } : { min: 0, max: 0 };
    let val = key;
    for (const [k, v] of pairs) {
      sum = add(sum, add(this.cost(k), this.cost(v)));
      key = union(key, this.size(k));
      val = union(val, this.size(v));
    }
    this.entries.set(node, { container: 'map', key, val });
    return sum;
  }

  private conditional(node: CelNode): number {
    const [c, t, f] = node.args as [CelNode, CelNode, CelNode];
    const cost = add(this.cost(c), Math.max(this.cost(t), this.cost(f)));
    this.sizes.set(node, union(this.size(t), this.size(f)));
    const et = this.entry(t);
    const ef = this.entry(f);
    if (et && ef) this.entries.set(node, { container: et.container, key: union(et.key, ef.key), val: union(et.val, ef.val) });
    return cost;
  }

  private call(node: CelNode): number {
    const member = node.op === 'rcall';
    const name = (node.args as unknown[])[0] as string;
    const target = member ? ((node.args as unknown[])[1] as CelNode) : undefined;
    const args = ((node.args as unknown[])[member ? 2 : 1] as CelNode[]) ?? [];
    if (member && macros.has(name) && args.length === 2 && args[0]!.op === 'id') return this.comprehension(node, name, target!, args[0]!.args as string, args[1]!);
    if (member && name === 'map' && args.length === 3 && args[0]!.op === 'id') return this.comprehension(node, 'mapFilter', target!, args[0]!.args as string, args[2]!, args[1]!);
    if (!member && name === 'has' && args.length === 1) {
      // A presence test costs its operand only (Kubernetes turns has()'s own cost off).
      const select = args[0]!;
      return select.op === '.' ? this.cost((select.args as [CelNode])[0]) : this.cost(select);
    }
    if (!member && name === 'dyn' && args.length === 1) {
      const sum = add(1, this.cost(args[0]!));
      const size = this.computeSize(args[0]!);
      if (size) this.sizes.set(node, size);
      const entry = this.entry(args[0]!);
      if (entry) this.entries.set(node, entry);
      return sum;
    }
    const argCosts = args.map((a) => this.cost(a));
    let sum = target ? this.cost(target) : 0;
    const argSum = argCosts.reduce(add, 0);
    const estimate = libraryCost(this, name, target, args) ?? standardCost(this, name, target, args);
    sum = add(sum, add(estimate?.cost ?? 1, argSum));
    const size = estimate?.size ?? this.computeSize(node);
    if (size) this.sizes.set(node, size);
    return sum;
  }

  private operator(node: CelNode, args: CelNode[], costs: number[]): number {
    const argSum = costs.reduce(add, 0);
    const [l, r] = args as [CelNode, CelNode];
    const kl = kind(l);
    switch (node.op) {
      case '==':
      case '!=':
        return add(this.compareCost(l, r), argSum);
      case '<':
      case '<=':
      case '>':
      case '>=':
        if (kl === 'string' || kl === 'bytes') return add(this.compareCost(l, r), argSum);
        if (kl === 'dyn') return add(Math.max(1, this.compareCost(l, r)), argSum);
        return add(1, argSum);
      case 'in': {
        const kr = kind(r);
        const listCost = this.size(r).max;
        if (kr === 'list') return add(listCost, argSum);
        if (kr === 'dyn') return add(Math.max(1, listCost), argSum);
        return add(1, argSum);
      }
      case '+': {
        if (kl === 'string' || kl === 'bytes' || kl === 'list') {
          const size = { min: add(this.size(l).min, this.size(r).min), max: add(this.size(l).max, this.size(r).max) };
          this.sizes.set(node, size);
          const el = this.entry(l);
          const er = this.entry(r);
          if (el && er) this.entries.set(node, { container: el.container, key: union(el.key, er.key), val: union(el.val, er.val) });
          return add(kl === 'list' ? 1 : byFactor(size.max, stringTraversal), argSum);
        }
        return add(1, argSum);
      }
      default:
        return add(1, argSum);
    }
  }

  /** Equality and string ordering: a traversal of the shorter operand. */
  compareCost(l: CelNode, r: CelNode): number {
    return byFactor(Math.min(this.size(l).max, this.size(r).max), stringTraversal);
  }

  sizeOf(node: CelNode): Size {
    return this.size(node);
  }

  /** The largest size of a list's items, through the schema when the list has a path. */
  elementSize(list: CelNode): { size: Size; kind: string } | undefined {
    const t = list.checkedType;
    if (!t || t.kind !== 'list') return undefined;
    const elemType = t.valueType?.name ?? 'dyn';
    const path = this.path(list);
    const size = sizeOf(path && path.length ? this.estimateSize([...path, '@items']) : undefined);
    return { size, kind: elemType === 'string' || elemType === 'bytes' ? 'string' : 'other' };
  }

  /**
   * A macro, as cel-go expands it into a comprehension: its range and result, plus for each
   * of the range's items the loop condition and step (whose costs are cel-go's expansion's).
   */
  private comprehension(node: CelNode, macro: string, range: CelNode, variable: string, body: CelNode, filter?: CelNode): number {
    let sum = this.cost(range);
    const entry = this.entry(range);
    const isList = (entry?.container ?? kind(range)) === 'list';
    const rangePath = this.path(range) ?? [];
    const stack = this.locals.get(variable) ?? [];
    stack.push({ path: [...rangePath, isList ? '@items' : '@keys'], size: isList ? entry?.val : entry?.key });
    this.locals.set(variable, stack);
    const bodyCost = this.cost(body);
    const filterCost = filter ? this.cost(filter) : 0;
    const bodySize = this.size(body);
    const itemSize = this.size({ op: 'id', args: variable });
    stack.pop();
    let init = 0;
    let condition = 0;
    let step: number;
    let result = 1;
    switch (macro) {
      case 'all':
        condition = 2; // @not_strictly_false(accu)
        step = add(1, bodyCost); // accu && p
        break;
      case 'exists':
        condition = 3; // @not_strictly_false(!accu)
        step = add(1, bodyCost); // accu || p
        break;
      case 'exists_one':
      case 'existsOne':
        step = add(bodyCost, 2); // p ? accu + 1 : accu
        result = 2; // accu == 1
        break;
      case 'map':
        init = 10; // []
        step = add(12, bodyCost); // accu + [f]
        break;
      case 'mapFilter':
        init = 10;
        step = add(filterCost, Math.max(add(12, bodyCost), 1)); // p ? accu + [f] : accu
        break;
      default: // filter
        init = 10;
        step = add(bodyCost, 13); // p ? accu + [x] : accu
        break;
    }
    sum = add(sum, add(init, result));
    const count = this.size(range);
    sum = add(sum, mul(count.max, add(step, condition)));
    if (macro === 'map' || macro === 'mapFilter' || macro === 'filter') {
      this.sizes.set(node, count);
      this.entries.set(node, { container: 'list', key: fixed(1), val: { min: 0, max: (macro === 'filter' ? itemSize : bodySize).max } });
    } else this.sizes.set(node, fixed(1));
    return sum;
  }
}

function unary(node: CelNode): CelNode {
  return (Array.isArray(node.args) ? node.args[0] : node.args) as CelNode;
}

function fixed(n: number): Size {
  return { min: n, max: n };
}

interface CallEstimate {
  cost: number;
  size?: Size;
}

/** Kubernetes' own library costs (apiserver `library.CostEstimator.EstimateCallCost`), by function name. */
function libraryCost(e: Estimator, name: string, target: CelNode | undefined, args: CelNode[]): CallEstimate | undefined {
  switch (name) {
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf': {
      if (!target) return undefined;
      const element = e.elementSize(target);
      const size = e.sizeOf(target);
      if (!element) return { cost: byFactor(size.max, stringTraversal) };
      const perElement = element.kind === 'string' ? add(1, byFactor(element.size.max, stringTraversal)) : 1;
      return { cost: mul(size.max, perElement) };
    }
    case 'url':
      return args.length === 1 ? { cost: byFactor(e.sizeOf(args[0]!).max, stringTraversal) } : undefined;
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim': {
      if (!target) return undefined;
      const size = e.sizeOf(target);
      return { cost: byFactor(size.max, stringTraversal), size };
    }
    case 'replace': {
      if (!target || args.length < 2) return undefined;
      const size = e.sizeOf(target);
      const from = e.sizeOf(args[0]!);
      const to = e.sizeOf(args[1]!);
      const count = { min: 0, max: 0 };
      const kept = { min: 0, max: 0 };
      if (from.min === 0) {
        count.max = size.max < MAX ? size.max + 1 : size.max;
        kept.max = size.max;
      } else if (to.max <= from.min) kept.max = size.max;
      else count.max = Math.ceil(size.max / from.min);
      if (from.max === 0) {
        count.min = size.min < MAX ? size.min + 1 : size.min;
        kept.min = size.min;
      } else if (from.max <= to.min) kept.min = size.min;
      else count.min = Math.ceil(size.min / from.max);
      return { cost: byFactor(size.max, 2 * stringTraversal), size: { min: add(mul(count.min, to.min), kept.min), max: add(mul(count.max, to.max), kept.max) } };
    }
    case 'split': {
      if (!target) return undefined;
      const size = e.sizeOf(target);
      const limit = args[1]?.op === 'value' ? Number(args[1].args) : undefined;
      return { cost: byFactor(size.max, 2 * stringTraversal), size: { min: 0, max: limit !== undefined && limit >= 0 ? limit : size.max } };
    }
    case 'join': {
      if (!target) return undefined;
      const list = e.sizeOf(target);
      const element = e.elementSize(target);
      let size: Size = element ? { min: mul(list.min, element.size.min), max: mul(list.max, element.size.max) } : { min: 0, max: 0 };
      if (args.length) {
        const sep = e.sizeOf(args[0]!);
        size = { min: add(size.min, mul(sep.min, Math.max(0, list.min - 1))), max: add(size.max, mul(sep.max, Math.max(0, list.max - 1))) };
      }
      return { cost: byFactor(size.max, stringTraversal), size };
    }
    case 'find':
    case 'findAll': {
      if (!target || args.length < 1) return undefined;
      const size = e.sizeOf(target);
      return { cost: mul(byFactor(add(size.max, 1), stringTraversal), byFactor(e.sizeOf(args[0]!).max, regexLength)), size: { min: 0, max: size.max } };
    }
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      // Parsing is a traversal of the string (kube-apiserver 1.36.3 prices `isQuantity(s)` so).
      return args.length >= 1 ? { cost: byFactor(e.sizeOf(args[0]!).max, stringTraversal) } : undefined;
    case 'ip':
      if (args.length >= 1) return { cost: byFactor(e.sizeOf(args[0]!).max, stringTraversal) };
      // CIDR.ip() reads a field.
      return target ? { cost: 1 } : undefined;
    case 'masked':
    case 'prefixLength':
    case 'family':
    case 'isUnspecified':
    case 'isLoopback':
    case 'isLinkLocalMulticast':
    case 'isLinkLocalUnicast':
      return { cost: 1 };
    case 'containsIP':
    case 'containsCIDR': {
      if (!target || args.length < 1) return undefined;
      // Comparing two addresses of at most 16 bytes; a CIDR is masked first.
      let cost = byFactor(16 + 16, stringTraversal);
      if (name === 'containsCIDR') cost = add(cost, add(byFactor(16, stringTraversal), 1));
      if (typeName(args[0]!) === 'string') cost = add(cost, byFactor(e.sizeOf(args[0]!).max, stringTraversal));
      return { cost };
    }
    case 'sign':
    case 'asInteger':
    case 'isInteger':
    case 'asApproximateFloat':
    case 'isGreaterThan':
    case 'isLessThan':
    case 'compareTo':
    case 'add':
    case 'sub':
      return { cost: 1 };
  }
  return undefined;
}

/** cel-go's own costs of its standard functions (`checker/cost.go` `functionCost`). */
function standardCost(e: Estimator, name: string, target: CelNode | undefined, args: CelNode[]): CallEstimate | undefined {
  switch (name) {
    case 'startsWith':
    case 'endsWith':
      return target && args.length === 1 ? { cost: byFactor(e.sizeOf(args[0]!).max, stringTraversal) } : undefined;
    case 'matches':
      return target && args.length === 1
        ? { cost: mul(byFactor(add(e.sizeOf(target).max, 1), stringTraversal), byFactor(e.sizeOf(args[0]!).max, regexLength)) }
        : undefined;
    case 'contains':
      // The one member `contains` is the string one, also on a dyn (int-or-string) target.
      return target && args.length === 1
        ? { cost: mul(byFactor(e.sizeOf(target).max, stringTraversal), byFactor(e.sizeOf(args[0]!).max, stringTraversal)) }
        : undefined;
    case 'bytes':
      if (!target && args.length === 1 && typeName(args[0]!) === 'string') {
        const size = e.sizeOf(args[0]!);
        return { cost: byFactor(size.max, stringTraversal), size: { min: size.min, max: mul(size.max, 4) } };
      }
      return undefined;
    case 'string':
      if (!target && args.length === 1 && typeName(args[0]!) === 'bytes') {
        const size = e.sizeOf(args[0]!);
        return { cost: byFactor(size.max, stringTraversal), size: { min: Math.floor(size.min / 4), max: size.max } };
      }
      return undefined;
  }
  return undefined;
}
