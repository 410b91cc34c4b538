/**
 * The JSDoc-tag spelling of the JSON-Schema keywords (`@minimum 1`, `@default {"a": 1}`),
 * each read as exactly its kubebuilder twin.
 *
 * @module
 */
import { UserError, type Location } from '../errors.js';
import type { Marker } from './parse.js';
import { markerDefs } from './registry.js';
import { ScanError, Scanner } from './scanner.js';
import { closest } from './suggest.js';

type TagValue = 'typed' | 'text' | 'json';

const tags: Record<string, { marker: string; value: TagValue }> = {
  minimum: { marker: 'kubebuilder:validation:Minimum', value: 'typed' },
  maximum: { marker: 'kubebuilder:validation:Maximum', value: 'typed' },
  exclusiveMinimum: { marker: 'kubebuilder:validation:ExclusiveMinimum', value: 'typed' },
  exclusiveMaximum: { marker: 'kubebuilder:validation:ExclusiveMaximum', value: 'typed' },
  multipleOf: { marker: 'kubebuilder:validation:MultipleOf', value: 'typed' },
  minLength: { marker: 'kubebuilder:validation:MinLength', value: 'typed' },
  maxLength: { marker: 'kubebuilder:validation:MaxLength', value: 'typed' },
  pattern: { marker: 'kubebuilder:validation:Pattern', value: 'text' },
  format: { marker: 'kubebuilder:validation:Format', value: 'text' },
  minItems: { marker: 'kubebuilder:validation:MinItems', value: 'typed' },
  maxItems: { marker: 'kubebuilder:validation:MaxItems', value: 'typed' },
  uniqueItems: { marker: 'kubebuilder:validation:UniqueItems', value: 'typed' },
  minProperties: { marker: 'kubebuilder:validation:MinProperties', value: 'typed' },
  maxProperties: { marker: 'kubebuilder:validation:MaxProperties', value: 'typed' },
  default: { marker: 'default', value: 'json' },
  example: { marker: 'kubebuilder:example', value: 'json' },
  nullable: { marker: 'nullable', value: 'typed' },
  title: { marker: 'kubebuilder:title', value: 'text' },
};

/** True for the tags that are schema keywords (`minimum`, `default`, …). */
export function isSchemaTag(tag: string): boolean {
  return tag in tags;
}

/** TSDoc tags that are documentation, never misspelt schema keywords. */
const documentationTags = new Set([
  'see', 'link', 'remarks', 'deprecated', 'param', 'returns', 'throws', 'since', 'internal',
  'public', 'beta', 'alpha', 'privateRemarks', 'defaultValue', 'module', 'packageDocumentation',
  'inheritDoc', 'label', 'typeParam', 'readonly', 'sealed', 'virtual', 'override', 'eventProperty',
  'experimental', 'todo', 'author', 'version', 'type', 'description',
]);

/**
 * Reads `@tag rest` when `tag` is a schema keyword. Returns undefined for documentation
 * tags; throws for a misspelt keyword or a bad value.
 */
export function parseTag(tag: string, rest: string, location: Location): Marker | undefined {
  const spec = tags[tag];
  if (!spec) {
    if (documentationTags.has(tag)) return undefined;
    const suggestion = closest(tag, Object.keys(tags));
    if (suggestion && (suggestion.toLowerCase() === tag.toLowerCase() || tag.length >= 6)) {
      throw new UserError(`unknown tag @${tag}`, location, `did you mean @${suggestion}?`);
    }
    return undefined;
  }
  const def = markerDefs.get(spec.marker)!;
  const text = `@${tag}${rest ? ` ${rest}` : ''}`;
  const valueAt: Location = { ...location, column: (location.column ?? 1) + tag.length + 2 };
  let value: unknown;
  if (spec.value === 'text') {
    if (!rest) throw new UserError(`${text} needs a value`, location, `write it as @${tag} <text>`);
    value = rest;
  } else if (spec.value === 'json') {
    try {
      value = { kind: 'json', value: JSON.parse(rest) };
    } catch {
      throw new UserError(`${text}: expected JSON`, valueAt, `strings need double quotes, e.g. @${tag} "text"`);
    }
  } else if (!def.value) {
    if (rest && rest !== 'true') throw new UserError(`${text} takes no value`, valueAt, `write it as @${tag}`);
    value = true;
  } else if (rest === '' && def.value === 'bool') {
    value = true;
  } else {
    try {
      const scanner = new Scanner(rest);
      value = scanner.value(def.value, false);
    } catch (error) {
      if (!(error instanceof ScanError)) throw error;
      const hint = /^exclusiveM/.test(tag)
        ? `@${tag} is true or false, as in kubebuilder; put the bound in @${tag === 'exclusiveMinimum' ? 'minimum' : 'maximum'}`
        : `write it as @${tag} <${def.value}>`;
      throw new UserError(`${text}: ${error.message}`, valueAt, hint);
    }
  }
  return { name: def.name, canonical: def.name, def, value, text, location };
}
