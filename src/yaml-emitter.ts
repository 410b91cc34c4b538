import { indentStep, scalarString } from './yaml-scalar.js';

/**
 * A YAML emitter for plain JSON data (null, booleans, numbers, strings, arrays and plain
 * objects) whose output is byte-identical to `yaml.stringify(value, { version: '1.1',
 * aliasDuplicateObjects: false, lineWidth: 0, indentSeq: true })`, at a tenth of the cost.
 * Block style throughout; empty collections are written `{}` and `[]`.
 *
 * @param options.reusable tells which objects can never change (deeply frozen, like
 *   opgen's shared built-in schemas): their text at each indentation is written once and
 *   reused, in this document and in later ones.
 * @param options.sortKeys writes every mapping's keys in the order a copy with its keys
 *   inserted in code-unit order enumerates them (array-index keys first, ascending, as
 *   JavaScript orders them), without making that copy.
 * @returns the document's text ending in a line break, or `undefined` when `value` holds
 *   anything else (a Date, a Map, a bigint, a class instance, …), which the caller then hands
 *   to the `yaml` library.
 */
export function emitPlainDocument(value: unknown, options: EmitOptions = {}): string | undefined {
  if (value === undefined) return undefined;
  current = options;
  try {
    return `${emitNode(value, '')}\n`;
  } catch (error) {
    if (error === notPlain) return undefined;
    throw error;
  } finally {
    current = {};
  }
}

/** Options of {@link emitPlainDocument}. */
export interface EmitOptions {
  reusable?: (value: object) => boolean;
  sortKeys?: boolean;
}

/** The options of the document being written. */
let current: EmitOptions = {};

/**
 * The text of each reusable collection by indentation, with keys as they are and sorted: a
 * node's text depends only on the node, its indentation and the order of keys, and a
 * reusable node cannot change.
 */
const reusedTexts = { asIs: new WeakMap<object, Map<string, string>>(), sorted: new WeakMap<object, Map<string, string>>() };

function reusedText(value: object, indent: string): string {
  const texts = current.sortKeys ? reusedTexts.sorted : reusedTexts.asIs;
  let byIndent = texts.get(value);
  let text = byIndent?.get(indent);
  if (text === undefined) {
    text = emitCollection(value, indent);
    if (!byIndent) texts.set(value, (byIndent = new Map()));
    byIndent.set(indent, text);
  } else {
    // The text was built from many small pieces; reading a character makes V8 join them once
    // here instead of in every document that reuses it (compared with the file on disk, written).
    text.charCodeAt(0);
  }
  return text;
}

/** Thrown (never escapes this module) when the data is not plain JSON. */
const notPlain = new Error('not plain JSON data');

/**
 * Short strings recur (types, formats, field names); their written forms are remembered, up
 * to a bound, since `--watch` runs for hours.
 */
const valueForms = new Map<string, string>();
const keyForms = new Map<string, string>();
const maxRememberedLength = 64;
const maxRemembered = 20_000;

function remember(forms: Map<string, string>, text: string, form: string): void {
  if (forms.size >= maxRemembered) forms.clear();
  forms.set(text, form);
}

/** A value at `indent`: the indentation its nested lines take. */
function emitNode(value: unknown, indent: string): string {
  switch (typeof value) {
    case 'string':
      return valueString(value, indent);
    case 'number':
      return numberString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      return current.reusable?.(value) ? reusedText(value, indent) : emitCollection(value, indent);
    case 'undefined':
      return 'null'; // a hole or undefined item of an array
    default:
      throw notPlain;
  }
}

function emitCollection(value: object, indent: string): string {
  if (Array.isArray(value)) return emitSequence(value, indent);
  if (isPlainObject(value)) return emitMapping(value, indent);
  throw notPlain;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function numberString(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? '.nan' : value < 0 ? '-.inf' : '.inf';
  return Object.is(value, -0) ? '-0' : JSON.stringify(value);
}

function valueString(value: string, indent: string): string {
  // At the top level (indent '') a `---` line forces a block, so only nested values are remembered.
  if (indent === '' || value.length > maxRememberedLength || value.includes('\n')) return scalarString(value, { indent, implicitKey: false });
  let form = valueForms.get(value);
  if (form === undefined) {
    form = scalarString(value, { indent, implicitKey: false });
    remember(valueForms, value, form);
  }
  return form;
}

/** A key at the top level may need quotes a nested one does not (`---`), so only nested keys are remembered. */
function keyString(key: string, keyIndent: string): string {
  if (keyIndent === indentStep || key.length > maxRememberedLength) return scalarString(key, { indent: keyIndent, implicitKey: true });
  let form = keyForms.get(key);
  if (form === undefined) {
    form = scalarString(key, { indent: keyIndent, implicitKey: true });
    remember(keyForms, key, form);
  }
  return form;
}

function emitSequence(items: readonly unknown[], indent: string): string {
  if (items.length === 0) return '[]';
  const itemIndent = indent + indentStep;
  let out = '';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += `\n${indent}`;
    out += `- ${emitNode(items[i], itemIndent)}`;
  }
  return out;
}

/** Pairs whose value is `undefined` are left out, as the `yaml` library does. */
function emitMapping(object: Record<string, unknown>, indent: string): string {
  const inner = indent + indentStep;
  let out = '';
  let first = true;
  for (const key of current.sortKeys ? sortedKeys(object) : Object.keys(object)) {
    const value = object[key];
    if (value === undefined) continue;
    if (!first) out += `\n${indent}`;
    first = false;
    out += emitPair(key, value, inner, indent);
  }
  return first ? '{}' : out;
}

/**
 * The keys of `object` in the order a copy that got them in code-unit order would list
 * them: JavaScript lists array-index keys (`0`, `12`) first in ascending numeric order
 * whatever the insertion order, and `Object.keys` already puts them first, so only the
 * others need sorting.
 */
function sortedKeys(object: object): string[] {
  const keys = Object.keys(object);
  let indices = 0;
  while (indices < keys.length && isArrayIndex(keys[indices]!)) indices++;
  if (indices === 0) return keys.sort();
  return [...keys.slice(0, indices), ...keys.slice(indices).sort()];
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/**
 * `key: value`; a key longer than 1,024 characters is written as an explicit `? key` line
 * followed by `: value`, because YAML limits implicit keys to 1,024 characters.
 */
function emitPair(key: string, value: unknown, inner: string, indent: string): string {
  const keyText = keyString(key, inner);
  const valueText = emitNode(value, inner);
  if (keyText.length > 1024) return `? ${keyText}\n${indent}: ${valueText}`;
  // A non-empty collection starts on the next line; `{}` and `[]` stay on the key's.
  const nested = typeof value === 'object' && value !== null && valueText !== '{}' && valueText !== '[]';
  return nested ? `${keyText}:\n${inner}${valueText}` : `${keyText}: ${valueText}`;
}
