import type { CelRule, CelSchema } from './schema.js';
import type { CelTypeProblem } from './problem.js';
import { type CelNode, estimateCost } from './cost.js';
import { type SizeNode, sizeModel, unboundedCardinality } from './cost-model.js';

/** kube-apiserver's limit on one rule's estimated cost, times how often it may run. */
export const perRuleCostLimit = 10_000_000;
/** kube-apiserver's limit on the estimated cost of all rules of one version's schema. */
export const perCrdCostLimit = 100_000_000;

/** A node above a rule's node, with its data path. */
export interface Ancestor {
  schema: CelSchema;
  path: string;
}

/** One expression's estimated cost, times how often it may run. */
export interface ExpressionCost {
  path: string;
  /** The schema node the rule is on. */
  node: CelSchema;
  rule: CelRule;
  field: 'rule' | 'messageExpression';
  cost: number;
  bounds: Pick<SizeNode, 'path' | 'unbounded'>[];
}

/** The budget's findings, as the API server reports them. */
export interface CostReport {
  /** The expressions over {@link perRuleCostLimit}, in schema order. */
  over: ExpressionCost[];
  /** All expressions together. */
  total: number;
  /** When the total is over {@link perCrdCostLimit}: the (at most four) largest contributors, largest first. */
  mostExpensive: ExpressionCost[];
}

/**
 * The API server's cost budget over one version's schema: each rule's estimate times the
 * number of times it may run (bounded by its ancestors' `maxItems`/`maxProperties`, or
 * estimated from the request size) must stay within 10 million, and all rules together within
 * 100 million, as apiextensions' CRD validation computes it.
 */
export class CostBudget {
  private readonly models = new Map<CelSchema, SizeNode>();
  private readonly observed: ExpressionCost[] = [];
  private readonly overLimit: ExpressionCost[] = [];
  /** How an over-limit cost splits into one run's cost and the number of runs, for the person's message. */
  private readonly perRun = new Map<ExpressionCost, string>();
  private total = 0;

  constructor(private readonly root: CelSchema) {}

  /** Records the estimate of one checked expression on `node`; over the per-rule limit, a problem. */
  rule(node: CelSchema, path: string, ancestors: readonly Ancestor[], rule: CelRule, field: 'rule' | 'messageExpression', ast: CelNode): void {
    const self = this.models.get(node) ?? sizeModel(node, path, node === this.root || Boolean(node['x-kubernetes-embedded-resource']), this.models);
    if (!self) return;
    const estimate = estimateCost(ast, self);
    // A messageExpression runs only when its rule fails, so the API server does not multiply it.
    const scope = field === 'messageExpression' ? { cardinality: 1, unbounded: [] } : cardinality(ancestors);
    const runs = scope.cardinality ?? unboundedCardinality(self);
    const cost = estimate.max === 0 ? 0 : saturatingProduct(estimate.max, runs);
    const bounds = [...estimate.unbounded, ...scope.unbounded];
    this.total = Math.min(this.total + cost, 2 ** 64 - 1);
    const observed: ExpressionCost = { path, node, rule, field, cost, bounds };
    if (cost >= perCrdCostLimit / 100) this.observed.push(observed);
    if (cost <= perRuleCostLimit) return;
    this.overLimit.push(observed);
    this.perRun.set(observed, runs > 1 ? ` (${formatCost(estimate.max)} per run, up to ${formatCost(runs)} runs per object)` : '');
  }

  /** What is over budget, as the API server counts it. */
  report(): CostReport {
    // The API server names the four largest contributors.
    const mostExpensive = this.total <= perCrdCostLimit ? [] : [...this.observed].sort((a, b) => b.cost - a.cost).slice(0, 4);
    return { over: [...this.overLimit], total: this.total, mostExpensive };
  }

  /** The rules over the per-rule limit, and the largest contributors when the total is over its own, worded for a person. */
  problems(): CelTypeProblem[] {
    const { over, mostExpensive } = this.report();
    const overProblems = over.map((o) => ({
      code: 'cost' as const,
      path: o.path,
      node: o.node,
      rule: o.rule,
      field: o.field,
      message: `the API server's estimated cost of this ${o.field} is ${formatCost(o.cost)}${this.perRun.get(o) ?? ''}, over its budget of ${formatCost(perRuleCostLimit)} per rule by factor of ${exceedFactor(o.cost, perRuleCostLimit)}`,
      hint: boundsHint(o.bounds),
    }));
    // One already over its own limit is reported once.
    const largest = mostExpensive.filter((o) => !over.includes(o));
    return [
      ...overProblems,
      ...largest.map((o) => ({
        code: 'cost' as const,
        path: o.path,
        node: o.node,
        rule: o.rule,
        field: o.field,
        message: `its estimated cost ${formatCost(o.cost)} is part of this version's CEL cost total of ${formatCost(this.total)}, over the API server's budget of ${formatCost(perCrdCostLimit)} per CRD version by factor of ${exceedFactor(this.total, perCrdCostLimit)}`,
        hint: boundsHint(o.bounds),
      })),
    ];
  }
}

/**
 * How many times a rule below `ancestors` may run per object: the product of their lists'
 * `maxItems` and maps' `maxProperties`; undefined when one of them is unbounded (then the
 * API server estimates it from the request size), with the unbounded ones to name.
 */
function cardinality(ancestors: readonly Ancestor[]): { cardinality: number | undefined; unbounded: Pick<SizeNode, 'path' | 'unbounded'>[] } {
  let product: number | undefined = 1;
  const unbounded: Pick<SizeNode, 'path' | 'unbounded'>[] = [];
  for (const { schema, path } of ancestors) {
    const isList = schema.type === 'array';
    const isMap = schema.type === 'object' && schema.additionalProperties !== undefined && schema.additionalProperties !== false;
    if (!isList && !isMap) continue;
    const bound = isList ? schema.maxItems : schema.maxProperties;
    if (bound === undefined) {
      product = undefined;
      unbounded.push({ path, unbounded: isList ? 'maxItems' : 'maxProperties' });
    } else if (product !== undefined) product = saturatingProduct(product, Math.max(0, bound));
  }
  return { cardinality: product, unbounded };
}

function saturatingProduct(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : Math.min(a * b, 2 ** 64 - 1);
}

function formatCost(n: number): string {
  return n >= 2 ** 64 - 1 ? 'unbounded' : Math.round(n).toLocaleString('en-US');
}

/** The factor as the API server words it. */
export function exceedFactor(cost: number, limit: number): string {
  const factor = cost / limit;
  if (factor > 100) return 'more than 100x';
  if (factor < 1.5) return `${factor.toFixed(6)}x`;
  return `${factor.toFixed(1)}x`;
}

const markers = { maxItems: 'MaxItems', maxProperties: 'MaxProperties', maxLength: 'MaxLength' } as const;

/** Which bounds to add: each unbounded list, map or string the estimate was made from. */
function boundsHint(bounds: Pick<SizeNode, 'path' | 'unbounded'>[]): string {
  const unique = [...new Map(bounds.filter((b) => b.unbounded).map((b) => [`${b.path} ${b.unbounded}`, b])).values()].sort((a, b) => a.path.localeCompare(b.path));
  if (!unique.length) return 'simplify the rule, or lower the maxItems, maxProperties or maxLength of what it reads';
  const items = unique.map((b) => {
    const onItems = b.path.endsWith('[*]');
    const field = onItems ? b.path.slice(0, -3) : b.path;
    return `${b.unbounded} on ${b.path || 'the root'} (+kubebuilder:validation:${onItems ? 'items:' : ''}${markers[b.unbounded!]} on ${field || 'the root'})`;
  });
  return `bound what the rule reads, or simplify it: add ${items.join(', ')}`;
}
