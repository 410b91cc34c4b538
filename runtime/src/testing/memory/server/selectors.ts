/**
 * Label selectors (equality- and set-based: `a=b`, `a==b`, `a!=b`, `a in (x,y)`,
 * `a notin (x)`, `a`, `!a`) and field selectors (`f=v`, `f==v`, `f!=v`), parsed and
 * matched as apimachinery's `labels.Parse` and `fields.ParseSelector` do, with their
 * error texts for bad input.
 */
import { badRequest } from './errors.js';
import type { Obj } from './storage.js';

type Requirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | '!' };

export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean;

/** Parses a label selector; throws 400 BadRequest with the parser's message when it is malformed. */
export function parseLabelSelector(text: string | undefined): LabelMatcher {
  if (!text || text.trim() === '') return () => true;
  const requirements = splitTopLevel(text).map((part) => parseRequirement(part.trim(), text));
  return (labels) =>
    requirements.every((r) => {
      const has = labels !== undefined && Object.hasOwn(labels, r.key);
      switch (r.op) {
        case 'exists':
          return has;
        case '!':
          return !has;
        case 'in':
          return has && r.values.includes(labels![r.key]!);
        case 'notin':
          return !has || !r.values.includes(labels![r.key]!);
      }
    });
}

/** Splits at commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function parseRequirement(part: string, whole: string): Requirement {
  const invalid = (why: string) => badRequest(`unable to parse requirement: ${why}`);
  if (part === '') throw badRequest(`found '', expected: !, identifier, or 'end of string'`);
  let match: RegExpExecArray | null;
  if ((match = /^!\s*(\S+)$/.exec(part))) return { key: checkKey(match[1]!, invalid), op: '!' };
  if ((match = /^(\S+?)\s+(in|notin)\s*\((.*)\)$/.exec(part))) {
    const values = match[3]!.split(',').map((v) => v.trim());
    for (const v of values) checkValue(v, invalid);
    return { key: checkKey(match[1]!, invalid), op: match[2] as 'in' | 'notin', values: values.filter((v, i) => !(v === '' && values.length > 1 && i === values.length - 1)) };
  }
  // The lexer's answers for the two common slips: a set without parentheses, a value with a space.
  if ((match = /^(\S+?)\s+(in|notin)\s+([^\s(),!=]+)/.exec(part))) throw badRequest(`unable to parse requirement: found '${match[3]}' expected: '('`);
  if ((match = /^([^=!\s]+)\s*(==|=|!=)\s*([^\s(),!=]*)\s+([^\s(),!=]+)/.exec(part))) throw badRequest(`found '${match[4]}', expected: ',' or 'end of string'`);
  if ((match = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(part))) {
    const key = checkKey(match[1]!, invalid);
    const value = checkValue(match[3]!, invalid);
    return { key, op: match[2] === '!=' ? 'notin' : 'in', values: [value] };
  }
  if (/^[^\s=!(),]+$/.test(part)) return { key: checkKey(part, invalid), op: 'exists' };
  throw badRequest(`unable to parse requirement: found '${part}' in label selector "${whole}"`);
}

function checkKey(key: string, invalid: (why: string) => Error): string {
  if (!LABEL_KEY.test(key) || key.split('/').pop()!.length > 63) {
    throw invalid(`<nil>: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`);
  }
  return key;
}

function checkValue(value: string, invalid: (why: string) => Error): string {
  if (!LABEL_VALUE.test(value) || value.length > 63) {
    throw invalid(`values[0][${value}]: Invalid value: "${value}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`);
  }
  return value;
}

/** One `field=value` or `field!=value` term. */
export interface FieldTerm {
  field: string;
  value: string;
  negated: boolean;
}

/** Parses a field selector's syntax (which fields a kind supports is checked by {@link fieldMatcher}). */
export function parseFieldSelector(text: string | undefined): FieldTerm[] {
  if (!text || text.trim() === '') return [];
  return text.split(',').map((part) => {
    const match = /^([^=!]+?)(==|=|!=)(.*)$/.exec(part.trim());
    if (!match) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    return { field: match[1]!, value: match[3]!, negated: match[2] === '!=' };
  });
}

/**
 * A matcher for the field selector's terms over `selectable` fields (besides
 * `metadata.name` and `metadata.namespace`); an unsupported field answers 400 with the
 * message the kind's field label conversion gives.
 */
export function fieldMatcher(terms: FieldTerm[], selectable: string[], errorStyle: 'default' | 'label'): (object: Obj) => boolean {
  const allowed = ['metadata.name', 'metadata.namespace', ...selectable];
  for (const term of terms) {
    if (allowed.includes(term.field)) continue;
    if (errorStyle === 'label') throw badRequest(`field label not supported: ${term.field}`);
    throw badRequest(`"${term.field}" is not a known field selector: only ${allowed.map((f) => `"${f}"`).join(', ')}`);
  }
  return (object) =>
    terms.every((term) => {
      const actual = fieldValue(object, term.field);
      return term.negated ? actual !== term.value : actual === term.value;
    });
}

/** The string a field selector compares with: scalars as text, missing as the empty string. */
function fieldValue(object: Obj, path: string): string {
  let value: unknown = object;
  for (const part of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Obj)[part] : undefined;
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
