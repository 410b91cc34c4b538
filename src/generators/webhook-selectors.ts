/**
 * The `namespaceSelector`, `objectSelector` and `matchConditions` arguments of a
 * `+kubebuilder:webhook` marker, which controller-gen v0.21 does not have: JSON as the
 * API's own objects (a LabelSelector, a list of MatchConditions), checked here as the API
 * server would check them so that a mistake is reported at its marker, not at `kubectl apply`.
 *
 * @module
 */
import { UserError, type Location } from '../errors.js';
import type { WrittenJson } from '../markers/types.js';
import { checkCelRule } from '../validation/cel.js';

/** A `metav1.LabelSelector`, keys in the order the API serves them. */
export interface LabelSelector {
  matchExpressions?: LabelSelectorRequirement[];
  matchLabels?: Record<string, string>;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface MatchCondition {
  name: string;
  expression: string;
}

/** The API server's limit on match conditions per webhook. */
const maxMatchConditions = 64;
const labelName = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

/** Where in the marker's line an argument's JSON starts. */
function at(location: Location, json: WrittenJson, offset = 0): Location {
  return { ...location, column: json.column + offset };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A label key or match condition name: `[prefix/]name`, as the API's qualified names. */
function qualifiedNameProblem(text: string): string | undefined {
  const parts = text.split('/');
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length > 2) return 'has more than one "/"';
  if (parts.length === 2 && (parts[0]!.length > 253 || !dnsSubdomain.test(parts[0]!))) return 'has a prefix that is not a DNS subdomain';
  if (name.length > 63 || !labelName.test(name)) return 'must be 63 characters or fewer of letters, digits, "-", "_" or "." that start and end with a letter or digit';
  return undefined;
}

/**
 * Reads a LabelSelector written as JSON.
 *
 * @returns the selector with its keys in the API's order, or undefined after pushing errors.
 */
export function readLabelSelector(arg: string, json: WrittenJson, location: Location, errors: UserError[]): LabelSelector | undefined {
  const fail = (message: string) => {
    errors.push(new UserError(`+kubebuilder:webhook: ${arg} ${message}`, at(location, json), 'e.g. {"matchExpressions":[{"key":"env","operator":"In","values":["prod"]}]}'));
    return undefined;
  };
  const value = json.value;
  if (!isObject(value)) return fail('must be a JSON object (a LabelSelector)');
  const unknown = Object.keys(value).filter((key) => key !== 'matchLabels' && key !== 'matchExpressions');
  if (unknown.length) return fail(`has unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}; a LabelSelector has matchLabels and matchExpressions`);
  const out: LabelSelector = {};
  if (value.matchExpressions !== undefined) {
    if (!Array.isArray(value.matchExpressions)) return fail('matchExpressions must be a list');
    const requirements: LabelSelectorRequirement[] = [];
    for (const [i, item] of value.matchExpressions.entries()) {
      const problem = requirementProblem(item);
      if (problem) return fail(`matchExpressions[${i}] ${problem}`);
      const { key, operator, values } = item as { key: string; operator: LabelSelectorRequirement['operator']; values?: string[] };
      requirements.push({ key, operator, ...(values !== undefined && values.length > 0 ? { values: [...values] } : {}) });
    }
    out.matchExpressions = requirements;
  }
  if (value.matchLabels !== undefined) {
    if (!isObject(value.matchLabels)) return fail('matchLabels must be an object of label keys to values');
    const labels: Record<string, string> = {};
    for (const [key, label] of Object.entries(value.matchLabels)) {
      const keyProblem = qualifiedNameProblem(key);
      if (keyProblem) return fail(`matchLabels key ${JSON.stringify(key)} ${keyProblem}`);
      if (typeof label !== 'string' || label.length > 63 || !labelValue.test(label)) {
        return fail(`matchLabels[${JSON.stringify(key)}] must be a label value (a string of 63 characters or fewer)`);
      }
      labels[key] = label;
    }
    out.matchLabels = labels;
  }
  return out;
}

function requirementProblem(item: unknown): string | undefined {
  if (!isObject(item)) return 'must be an object with key, operator and values';
  const unknown = Object.keys(item).filter((key) => !['key', 'operator', 'values'].includes(key));
  if (unknown.length) return `has unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}`;
  if (typeof item.key !== 'string') return 'needs a key';
  const keyProblem = qualifiedNameProblem(item.key);
  if (keyProblem) return `key ${JSON.stringify(item.key)} ${keyProblem}`;
  if (!operators.includes(item.operator as (typeof operators)[number])) {
    return `operator ${JSON.stringify(item.operator)} is not one of ${operators.join(', ')}`;
  }
  const values = item.values ?? [];
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) return 'values must be a list of strings';
  if ((item.operator === 'In' || item.operator === 'NotIn') && values.length === 0) return `operator ${item.operator} needs values`;
  if ((item.operator === 'Exists' || item.operator === 'DoesNotExist') && values.length > 0) return `operator ${item.operator} takes no values`;
  const bad = (values as string[]).find((v) => v.length > 63 || !labelValue.test(v));
  if (bad !== undefined) return `value ${JSON.stringify(bad)} is not a label value`;
  return undefined;
}

/**
 * Reads match conditions written as a JSON list of `{"name", "expression"}`: names unique
 * qualified names, at most 64 conditions, each expression parsed as CEL. A CEL syntax
 * error is reported at the column of the character it was found at.
 */
export function readMatchConditions(json: WrittenJson, location: Location, errors: UserError[]): MatchCondition[] | undefined {
  const hint = 'e.g. [{"name":"not-leases","expression":"request.resource.resource != \'leases\'"}]';
  const fail = (message: string, column = json.column, withHint = true) => {
    errors.push(new UserError(`+kubebuilder:webhook: matchConditions ${message}`, { ...location, column }, withHint ? hint : undefined));
    return undefined;
  };
  const value = json.value;
  if (!Array.isArray(value)) return fail('must be a JSON list of {"name", "expression"} objects');
  if (value.length > maxMatchConditions) return fail(`has ${value.length} conditions; the API allows at most ${maxMatchConditions}`);
  const expressions = expressionOffsets(json.raw);
  const seen = new Set<string>();
  const out: MatchCondition[] = [];
  for (const [i, item] of value.entries()) {
    if (!isObject(item)) return fail(`[${i}] must be an object with name and expression`);
    const unknown = Object.keys(item).filter((key) => key !== 'name' && key !== 'expression');
    if (unknown.length) return fail(`[${i}] has unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
    const { name, expression } = item;
    if (typeof name !== 'string' || name === '') return fail(`[${i}] needs a name`);
    const nameProblem = qualifiedNameProblem(name);
    if (nameProblem) return fail(`[${i}] name ${JSON.stringify(name)} ${nameProblem}`);
    if (seen.has(name)) return fail(`[${i}] name ${JSON.stringify(name)} is used twice`);
    seen.add(name);
    if (typeof expression !== 'string' || expression.trim() === '') return fail(`[${i}] needs an expression`);
    const problem = checkCelRule(expression);
    if (problem) {
      const literal = expressions[i];
      const column = literal === undefined ? json.column : json.column + literal.offset + rawIndex(literal.raw, (problem.column ?? 1) - 1);
      return fail(`[${i}] expression ${JSON.stringify(name)} is not valid CEL: ${problem.message}`, column, false);
    }
    out.push({ expression, name });
  }
  return out;
}

/**
 * The string literals that are values of an `"expression"` key in the JSON text, in order,
 * each with its offset in the text (at its opening quote) and its text as written.
 */
function expressionOffsets(raw: string): { offset: number; raw: string }[] {
  const strings: { offset: number; raw: string; next: string }[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== '"') continue;
    let end = i + 1;
    while (end < raw.length && raw[end] !== '"') end += raw[end] === '\\' ? 2 : 1;
    let after = end + 1;
    while (after < raw.length && /\s/.test(raw[after]!)) after++;
    strings.push({ offset: i, raw: raw.slice(i, end + 1), next: raw[after] ?? '' });
    i = end;
  }
  const out: { offset: number; raw: string }[] = [];
  for (const [k, s] of strings.entries()) {
    const value = strings[k + 1];
    if (s.next === ':' && s.raw === '"expression"' && value) out.push({ offset: value.offset, raw: value.raw });
  }
  return out;
}

/**
 * The index in a JSON string literal (quotes included) of the character at `decoded`
 * in its value, so an error in an expression with escapes still points at the right place.
 */
function rawIndex(literal: string, decoded: number): number {
  let index = 1;
  for (let n = 0; n < decoded && index < literal.length - 1; n++) {
    if (literal[index] !== '\\') index += 1;
    else index += literal[index + 1] === 'u' ? 6 : 2;
  }
  return index;
}
