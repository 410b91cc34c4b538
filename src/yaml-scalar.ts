/**
 * How one string is written in YAML: plain, single-quoted, double-quoted or as a literal block.
 * The choices are the `yaml` library's (version 1.1, `lineWidth: 0`, default quoting), so the
 * emitter's output is byte-identical to `yaml.stringify`; test/yaml-emitter.test.ts proves it
 * against the library with random documents.
 */

/** Where a string is written: its indentation, and whether it is a mapping key. */
export interface ScalarContext {
  /** The indentation of the lines a multi-line form continues on. */
  readonly indent: string;
  /** True for a mapping key written `key: value`. */
  readonly implicitKey: boolean;
}

/** The indentation one level deeper adds. */
export const indentStep = '  ';

/** Characters that only a double-quoted string can carry: C0/C1 controls and lone surrogates. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job.
const needsEscapes = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u;

/** A plain scalar may not start with an indicator, hold `: ` or ` #`, or end with a space or colon. */
const notPlain = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;

/** A line a YAML 1.1 reader would take for a directive or a document boundary. */
const documentMarker = /^(%|---|\.\.\.)/m;

/**
 * Plain text that a YAML 1.1 reader resolves to something other than a string: null, the
 * booleans (`y`, `on`, `off`, …), binary/octal/decimal/hex and sexagesimal integers, floats
 * (with `.inf`/`.nan` and sexagesimals) and timestamps. Such strings must be quoted.
 */
const otherTypes = new RegExp(
  [
    '^(?:~|[Nn]ull|NULL)?$',
    '^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$',
    '^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$',
    '^[-+]?0b[0-1_]+$',
    '^[-+]?[0-9][0-9_]*$',
    '^[-+]?0x[0-9a-fA-F_]+$',
    '^(?:[-+]?\\.(?:inf|Inf|INF)|\\.nan|\\.NaN|\\.NAN)$',
    '^[-+]?(?:[0-9][0-9_]*)?(?:\\.[0-9_]*)?[eE][-+]?[0-9]+$',
    '^[-+]?(?:[0-9][0-9_]*)?\\.[0-9_]*$',
    '^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?$',
    '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:t|T|[ \\t]+)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\\.[0-9]+)?(?:[ \\t]*(?:Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$',
  ].join('|'),
);

/** Short escapes YAML has beyond JSON's, for the `\uXXXX` escapes JSON.stringify writes. */
const yamlEscapes: Record<string, string> = {
  '0000': '\\0',
  '0007': '\\a',
  '000b': '\\v',
  '001b': '\\e',
  '0085': '\\N',
  '00a0': '\\_',
  '2028': '\\L',
  '2029': '\\P',
};

/** Double-quoted strings shorter than this (as JSON) keep `\n` escapes on one line. */
const minMultiLineLength = 40;

/** The YAML text of `value` written where `context` says. */
export function scalarString(value: string, context: ScalarContext): string {
  if (needsEscapes.test(value)) return doubleQuoted(value, context);
  return plain(value, context);
}

function plain(value: string, context: ScalarContext): string {
  const { implicitKey, indent } = context;
  const multiLine = value.includes('\n');
  if (implicitKey && multiLine) return quoted(value, context);
  if (notPlain.test(value)) return implicitKey || !multiLine ? quoted(value, context) : literalBlock(value, context);
  if (!implicitKey && multiLine) return literalBlock(value, context);
  if (documentMarker.test(value)) {
    if (indent === '') return literalBlock(value, context);
    if (implicitKey && indent === indentStep) return quoted(value, context);
  }
  if (otherTypes.test(value)) return quoted(value, context);
  return value;
}

/** Single quotes when the text holds `"` but no `'`, double quotes otherwise. */
function quoted(value: string, context: ScalarContext): string {
  return value.includes('"') && !value.includes("'") ? singleQuoted(value, context) : doubleQuoted(value, context);
}

/** The indentation of a quoted or block string's continuation lines; a top-level one is indented anyway when a line could end the document. */
function continuationIndent(value: string, context: ScalarContext): string {
  return context.indent || (documentMarker.test(value) ? indentStep : '');
}

function singleQuoted(value: string, context: ScalarContext): string {
  // Spaces around a line break would be folded away inside single quotes.
  if ((context.implicitKey && value.includes('\n')) || /[ \t]\n|\n[ \t]/.test(value)) return doubleQuoted(value, context);
  const indent = continuationIndent(value, context);
  return `'${value.replace(/'/g, "''").replace(/\n+/g, `$&\n${indent}`)}'`;
}

/**
 * JSON's escaping with YAML's short escapes. A long value's line breaks become real line
 * breaks (a break is written as an empty line, since a single one folds to a space); spaces
 * next to them are escaped so folding keeps them.
 */
function doubleQuoted(value: string, context: ScalarContext): string {
  const json = JSON.stringify(value);
  const breakLines = !context.implicitKey && json.length >= minMultiLineLength;
  const indent = continuationIndent(value, context);
  let out = '';
  let start = 0;
  for (let i = 0; i < json.length; i++) {
    let ch = json[i];
    if (ch === ' ' && json[i + 1] === '\\' && json[i + 2] === 'n') {
      out += `${json.slice(start, i)}\\ `;
      i += 1;
      start = i;
      ch = '\\';
    }
    if (ch !== '\\') continue;
    const next = json[i + 1];
    if (next === 'u') {
      out += json.slice(start, i);
      const code = json.slice(i + 2, i + 6);
      out += yamlEscapes[code] ?? (code.startsWith('00') ? `\\x${code.slice(2)}` : json.slice(i, i + 6));
      i += 5;
      start = i + 1;
    } else if (next === 'n' && breakLines && json[i + 2] !== '"') {
      out += `${json.slice(start, i)}\n\n`;
      while (json[i + 2] === '\\' && json[i + 3] === 'n' && json[i + 4] !== '"') {
        out += '\n';
        i += 2;
      }
      out += indent;
      if (json[i + 2] === ' ') out += '\\';
      i += 1;
      start = i + 1;
    } else {
      i += 1;
    }
  }
  return start ? out + json.slice(start) : json;
}

/**
 * A literal block (`|`), with the chomping indicator its trailing line breaks need and an
 * indentation indicator when the text starts with a space. Text ending in a line of only
 * whitespace cannot be a block and is quoted.
 */
function literalBlock(text: string, context: ScalarContext): string {
  if (/\n[\t ]+$/.test(text)) return quoted(text, context);
  const indent = continuationIndent(text, context);
  if (!text) return '|\n';
  let value = text;
  let endStart = value.length;
  while (endStart > 0 && /[\n\t ]/.test(value[endStart - 1]!)) endStart--;
  let end = value.slice(endStart);
  const endBreak = end.indexOf('\n');
  const chomp = endBreak === -1 ? '-' : value === end || endBreak !== end.length - 1 ? '+' : '';
  if (end) {
    value = value.slice(0, -end.length);
    if (end.endsWith('\n')) end = end.slice(0, -1);
    end = end.replace(/(^|(?<!\n))\n+(?!\n|$)/g, `$&${indent}`);
  }
  let startWithSpace = false;
  let startEnd = 0;
  let lastBreak = -1;
  for (; startEnd < value.length; startEnd++) {
    const ch = value[startEnd];
    if (ch === ' ') startWithSpace = true;
    else if (ch === '\n') lastBreak = startEnd;
    else break;
  }
  let start = value.slice(0, lastBreak < startEnd ? lastBreak + 1 : startEnd);
  if (start) {
    value = value.slice(start.length);
    start = start.replace(/\n+/g, `$&${indent}`);
  }
  const header = (startWithSpace ? (indent ? '2' : '1') : '') + chomp;
  return `|${header}\n${indent}${start}${value.replace(/\n+/g, `$&${indent}`)}${end}`;
}
