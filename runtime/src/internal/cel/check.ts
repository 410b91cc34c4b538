import { createRequire } from 'node:module';
import type { Environment } from '@marcbachmann/cel-js';
import type { CelProblemCode, CelTypeProblem } from './problem.js';
import type { CelSchema } from './schema.js';
import { type CelNode } from './cost.js';
import { type Ancestor, CostBudget } from './cost-budget.js';
import { knownFunctions, librarySignatures, libraryTypes } from './libraries.js';
import { fieldPathFindings } from './field-path.js';
import { compileRe2 } from './re2.js';
import { schemaTypes, type SchemaTypes } from './schema-types.js';

/**
 * cel-js, loaded on the first rule: a project without CEL rules does not pay for loading it.
 * In the bundled CLI (CommonJS) the literal `require` lets esbuild bundle cel-js, so V8's code
 * cache keeps it compiled between runs; as an ES module (dist/, tests) there is no `require`.
 */
function celJs(): typeof import('@marcbachmann/cel-js') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the literal `require` is what esbuild bundles (above).
  const load = typeof require === 'function' ? () => require('@marcbachmann/cel-js') as unknown : () => createRequire(import.meta.url)('@marcbachmann/cel-js') as unknown;
  return load() as typeof import('@marcbachmann/cel-js');
}

let declared: Environment | undefined;

/**
 * The constructor every object type of a schema is registered with. The checker never builds
 * a value, and without a constructor cel-js defines a conversion class per type, a third of
 * the time a schema's check took.
 */
// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- a constructor, never instantiated (above).
class SchemaObject {}

/** The handler of the operators declared for the checker, which never evaluates. */
function unreachable(): never {
  throw new Error('the CEL type checker does not evaluate');
}

/** The environment with Kubernetes' libraries, made once per process; each schema clones it. */
function libraries(): Environment {
  if (declared) return declared;
  declared = new (celJs().Environment)({ enableOptionalTypes: true, unlistedVariablesAreDyn: false });
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class -- a constructor per library type, never instantiated.
  for (const name of libraryTypes) declared.registerType(name, { ctor: class {}, fields: {} });
  for (const signature of librarySignatures) declared.registerFunction(signature, () => undefined);
  // cel-go orders bytes (lexically), cel-js does not.
  for (const op of ['<', '<=', '>', '>=']) declared.registerOperator(`bytes ${op} bytes`, unreachable);
  return declared;
}

/**
 * Constructs cel-js does not know but Kubernetes does: two-variable comprehensions, macros and
 * functions in a namespace (`sets.contains`, `cel.bind`, `strings.quote`…) and optional
 * helpers beyond `hasValue`/`value`/`orValue`. An expression using one is not type-checked:
 * cel-js would refuse it where the API server accepts it.
 */
const unsupported = /(?<![.\w])(?:sets|strings|lists|math|cel|base64|format|ip|optional|encoders)\.[A-Za-z]|\.(?:all|exists|existsOne|exists_one)\(\s*[A-Za-z_]\w*\s*,\s*[A-Za-z_]\w*\s*,|\.(?:transformList|transformMap|transformMapEntry|optMap|optFlatMap|sortBy|flatten|slice|distinct|sort|reverse|quote)\(|(?<![.\w])(?:authorizer|params|namespaceObject|request|variables)\b/;

/**
 * Type-checks every `x-kubernetes-validations` rule of a structural schema as the API server
 * compiles it: `self` (and `oldSelf`, an optional with `optionalOldSelf`) typed from the schema,
 * Kubernetes' libraries declared, the rule a bool and `messageExpression` a string, `oldSelf`
 * only where the API server can correlate old and new values; then the cost budget, its
 * problems worded for a person fixing the schema.
 *
 * @example
 * checkCelTypes(schema); // [{ code: 'result', path: 'spec.size', field: 'rule', message: 'must evaluate to bool, not int', ... }]
 */
export function checkCelTypes(root: CelSchema): CelTypeProblem[] {
  const { problems, budget } = analyzeCel(root);
  return [...problems, ...budget.problems()];
}

/**
 * The type problems of every rule (cost aside) and the cost budget of the rules that type-check,
 * for a caller that words the API server's own refusals (the memory cluster's CRD admission).
 *
 * @example
 * const { problems, budget } = analyzeCel(schema);
 * budget.report().total; // the estimated cost of all rules together
 */
export function analyzeCel(root: CelSchema): { problems: CelTypeProblem[]; budget: CostBudget } {
  const problems: CelTypeProblem[] = [];
  let base: Environment | undefined;
  // Typed on the first rule: most schemas have none, and typing one is a walk of all of it.
  let typed: SchemaTypes | undefined;
  const types = (): SchemaTypes => (typed ??= schemaTypes(root));
  const env = (): Environment => {
    if (base) return base;
    base = libraries().clone();
    for (const [name, fields] of types().objects) {
      // CEL defines equality on every type; cel-js has none for a registered type until it is declared
      // (`self == oldSelf` on an object, `x == y` over lists of objects). `!=` follows from `==`.
      base.registerType(name, { ctor: SchemaObject, fields }).registerOperator(`${name} == ${name}`, unreachable);
    }
    return base;
  };
  // Rules on one node share their environment: cloning is most of the cost of a check.
  const scopes = new Map<string, Environment>();
  const scope = (node: CelSchema, optionalOldSelf: boolean): Environment => {
    const type = types().typeOf(node);
    const key = `${type} ${optionalOldSelf}`;
    let found = scopes.get(key);
    if (!found) {
      found = env().clone().registerVariable('self', type).registerVariable('oldSelf', optionalOldSelf ? `optional<${type}>` : type);
      scopes.set(key, found);
    }
    return found;
  };
  const budget = new CostBudget(root);
  walk(root, '', true, [], (node, path, correlatable, ancestors) => {
    for (const rule of node['x-kubernetes-validations'] ?? []) {
      const usesOldSelf = /\boldSelf\b/.test(rule.rule);
      if (usesOldSelf && !correlatable) {
        problems.push({ code: 'oldSelf', path, node, rule, field: 'rule', message: 'oldSelf cannot be used here: the items of a list that is not a list-type=map have no old value to compare with' });
        continue;
      }
      const scoped = scope(node, Boolean(rule.optionalOldSelf));
      const report = (code: CelProblemCode, message: string, column?: number) => problems.push({ code, path, node, rule, field: 'rule', message, column });
      const missing = missingHasField(rule.rule, types().typeOf(node), types().objects);
      const ruleAst = missing ? (report('type', missing.message, missing.column), undefined) : check(scoped, rule.rule, 'bool', report);
      for (const { detail, reason } of fieldPathFindings(node, rule.fieldPath ?? '')) {
        problems.push({ code: 'fieldPath', path, node, rule, field: 'fieldPath', message: detail, hint: `${reason ? `${reason}; ` : ''}a fieldPath starts at the field the rule is on: .a.b, .labels['x.y']` });
      }
      const messageAst =
        rule.messageExpression === undefined ? undefined : check(scoped, rule.messageExpression, 'string', (code, message, column) => problems.push({ code, path, node, rule, field: 'messageExpression', message, column }));
      if (ruleAst) budget.rule(node, path, ancestors, rule, 'rule', ruleAst);
      if (messageAst) budget.rule(node, path, ancestors, rule, 'messageExpression', messageAst);
    }
  });
  return { problems, budget };
}

/** Type-checks one expression; returns its checked AST when it is right, for its cost estimate. */
function check(env: Environment, expression: string, want: 'bool' | 'string', report: (code: 'type' | 'result', message: string, column?: number) => void): CelNode | undefined {
  if (unsupported.test(expression)) return undefined;
  let ast: CelNode | undefined;
  let result: { valid: boolean; type?: string; error?: { message?: string; node?: { pos?: number; op?: string } } };
  try {
    const parsed = env.parse(expression) as unknown as { ast: CelNode; check(): typeof result };
    ast = parsed.ast;
    result = parsed.check();
  } catch (error) {
    result = { valid: false, error: error as { message?: string } };
  }
  if (result.valid) {
    // The API server compares the checked type with bool (string) exactly: `dyn` is refused too.
    if (result.type !== want) {
      report('result', `must evaluate to ${want}, not ${result.type}`);
      return undefined;
    }
    const badRegex = ast && invalidRegexLiteral(ast);
    if (badRegex) {
      report('type', 'invalid matches argument', [...expression.slice(0, badRegex.pos)].length + 1);
      return undefined;
    }
    return ast;
  }
  const message = (result.error?.message ?? '').split('\n')[0]!;
  if (!refused(message)) return undefined;
  const pos = result.error?.node?.pos;
  report('type', inCelGoWords(message, result.error?.node?.op), pos === undefined ? undefined : [...expression.slice(0, pos)].length + 1);
  return undefined;
}

/**
 * The first `matches` whose pattern is a string literal RE2 refuses: cel-go's regex literal
 * validator, which the API server enables, refuses such a rule when the CRD is written.
 */
function invalidRegexLiteral(node: CelNode): { pos: number } | undefined {
  const { op, args } = node;
  if ((op === 'rcall' || op === 'call') && Array.isArray(args) && args[0] === 'matches') {
    const pattern = (op === 'rcall' ? (args[2] as unknown[])[0] : (args[1] as unknown[])[1]) as { op?: string; args?: unknown; pos?: number } | undefined;
    if (pattern?.op === 'value' && typeof pattern.args === 'string' && 'error' in compileRe2(pattern.args)) return { pos: pattern.pos ?? 0 };
  }
  const children = Array.isArray(args) ? args.flat() : [args];
  for (const child of children) {
    if (typeof child === 'object' && child !== null && 'op' in child) {
      const found = invalidRegexLiteral(child as CelNode);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * `has(self.a.b)` of a field the schema does not declare, or of a field of a scalar or a list:
 * cel-js does not check the argument of `has`, the API server does. Only plain field chains
 * from `self` are followed, through object types (a map or `dyn` on the way ends the check).
 */
function missingHasField(expression: string, selfType: string, objects: ReadonlyMap<string, Record<string, string>>): { message: string; column: number } | undefined {
  for (const call of expression.matchAll(/\bhas\(\s*self((?:\.[A-Za-z_]\w*)+)\s*\)/g)) {
    let type: string | undefined = selfType;
    let offset = call.index + call[0].indexOf('self') + 4;
    for (const field of call[1]!.slice(1).split('.')) {
      const fields: Record<string, string> | undefined = type === undefined ? undefined : objects.get(type);
      const unselectable = type === undefined ? undefined : celGoScalar(type);
      if (unselectable) return { message: `type '${unselectable}' does not support field selection`, column: [...expression.slice(0, offset + 1)].length + 1 };
      if (!fields) break;
      if (!(field in fields)) return { message: `No such key: ${field}`, column: [...expression.slice(0, offset + 1)].length + 1 };
      type = fields[field];
      offset += field.length + 1;
    }
  }
  return undefined;
}

/** A scalar or list type in cel-go's words (`list(string)`), or undefined for what has fields. */
function celGoScalar(type: string): string | undefined {
  if (type.startsWith('list<')) {
    const item = type.slice(5, -1);
    return `list(${celGoScalar(item) ?? (item.startsWith('Object') ? 'object' : item)})`;
  }
  const named: Record<string, string> = { 'google.protobuf.Timestamp': 'timestamp', 'google.protobuf.Duration': 'duration' };
  return ['int', 'uint', 'double', 'bool', 'string', 'bytes'].includes(type) ? type : named[type];
}

/** Errors the API server's checker reports too; anything else may be a gap in what is declared here. */
function refused(message: string): boolean {
  if (
    /^(No such key|Unknown variable|no such overload|Logical operator requires bool operands|Cannot index type|List index must be int|Ternary condition must be bool)/.test(message) ||
    /predicate must return bool|cannot be range of a comprehension|receiver must be optional/.test(message)
  ) {
    return true;
  }
  const call = /^found no matching overload for '(?:[^']*\.)?([A-Za-z_]\w*)\(/.exec(message);
  return call !== null && knownFunctions.has(call[1]!);
}

/**
 * cel-go's words where cel-js has others a user would not find in Kubernetes' docs or issues:
 * `self.size` on a number is `type 'double' does not support field selection` there.
 */
function inCelGoWords(message: string, op: string | undefined): string {
  const scalar = /^Cannot index type '([^']+)'$/.exec(message);
  return scalar && op === '.' ? `type '${scalar[1]}' does not support field selection` : message;
}

type Visit = (node: CelSchema, path: string, correlatable: boolean, ancestors: readonly Ancestor[]) => void;

/**
 * Visits every node with its data path, whether the API server correlates its old and new
 * values, and its ancestors (root first), whose lists and maps multiply how often a rule runs.
 */
function walk(node: CelSchema, path: string, correlatable: boolean, ancestors: Ancestor[], visit: Visit): void {
  visit(node, path, correlatable, ancestors);
  if (!node.properties && !node.items && typeof node.additionalProperties !== 'object') return;
  ancestors.push({ schema: node, path });
  for (const [name, child] of Object.entries(node.properties ?? {})) walk(child, path ? `${path}.${name}` : name, correlatable, ancestors, visit);
  if (node.items) walk(node.items, `${path}[*]`, correlatable && node['x-kubernetes-list-type'] === 'map', ancestors, visit);
  if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${path}[*]`, correlatable, ancestors, visit);
  ancestors.pop();
}
