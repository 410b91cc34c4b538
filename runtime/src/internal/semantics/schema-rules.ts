/**
 * The shape of a node's `x-kubernetes-validations` entries as apiextensions-apiserver checks
 * it before any CEL: a rule is given, a message is one non-blank line (and required when the
 * rule spans lines), a messageExpression is not blank, and the reason is one of four.
 * Parsing, types, cost and fieldPath are CEL's (cel-admission.ts, admission.ts).
 *
 * @module
 */
import { goQuote } from './paths.js';
import { finding, type Place, type SchemaFinding } from './schema-place.js';
import type { SchemaNode, ValidationRule } from './types.js';

const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const LINE_BREAK = /[\n\r]/;

/**
 * The rule-shape findings of one node.
 *
 * @example
 * ruleFindings({ type: 'object', 'x-kubernetes-validations': [{ rule: 'true', message: 'a\nb' }] }, ROOT); // x-kubernetes-validations[0].message: must not contain line breaks
 */
export function ruleFindings(node: SchemaNode, place: Place): SchemaFinding[] {
  const found: SchemaFinding[] = [];
  ((node['x-kubernetes-validations'] as ValidationRule[] | undefined) ?? []).forEach((rule, i) => {
    const label = `x-kubernetes-validations[${i}]`;
    const text = rule.rule ?? '';
    const message = rule.message ?? '';
    if (text.trim() === '') found.push(finding(place, `${label}.rule`, { type: 'FieldValueRequired', detail: 'rule is not specified' }));
    else if (message !== '' && message.trim() === '') found.push(finding(place, `${label}.message`, { type: 'FieldValueInvalid', value: goQuote(message), detail: 'must be non-empty if specified' }));
    else if (LINE_BREAK.test(message.trim())) found.push(finding(place, `${label}.message`, { type: 'FieldValueInvalid', value: goQuote(message), detail: 'must not contain line breaks' }));
    else if (LINE_BREAK.test(text.trim()) && message.trim() === '') {
      found.push(finding(place, `${label}.message`, { type: 'FieldValueRequired', detail: 'message must be specified if rule contains line breaks' }));
    }
    if (rule.messageExpression !== undefined && rule.messageExpression !== '' && rule.messageExpression.trim() === '') {
      found.push(finding(place, `${label}.messageExpression`, { type: 'FieldValueRequired', detail: 'messageExpression must be non-empty if specified' }));
    }
    if (rule.reason !== undefined && !REASONS.includes(rule.reason)) {
      found.push(finding(place, `${label}.reason`, { type: 'FieldValueNotSupported', value: goQuote(rule.reason), detail: `supported values: ${REASONS.map(goQuote).join(', ')}` }));
    }
  });
  return found;
}
