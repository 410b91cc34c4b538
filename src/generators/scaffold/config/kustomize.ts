import { isMap, isNode, isScalar, isSeq, LineCounter } from 'yaml';
import { UserError } from '../../../errors.js';
import { parseKustomization } from '../../../project/kustomization.js';
import { yamlFile } from '../yaml-file.js';

/** config/crd/kustomization.yaml listing the CRD files `opgen manifests` writes. */
export function crdKustomization(resources: readonly string[]): string {
  return yamlFile(
    ['The CRDs of the project: `npm run manifests` writes them to bases/ from the types in src/api.'],
    { resources },
  );
}

/** config/samples/kustomization.yaml listing one sample object per kind. */
export function samplesKustomization(resources: readonly string[]): string {
  return yamlFile(['One sample object per kind: `kubectl apply -k config/samples`.'], { resources });
}

/**
 * Adds each of `entries` that is missing to the `resources` list of a kustomization.yaml,
 * keeping everything else in the file (comments, other keys, the user's entries).
 */
export function addResources(text: string, entries: readonly string[], file: string): string {
  const lineCounter = new LineCounter();
  const doc = parseKustomization(text, file, lineCounter);
  const at = (offset: number | undefined) => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { file, line, column: col };
  };
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new UserError('expected a kustomization (a mapping of keys to values)', at(doc.contents.range?.[0]));
  }
  let resources = doc.get('resources', true);
  if (resources === undefined || (isScalar(resources) && resources.value === null)) {
    resources = doc.createNode([]);
    doc.set('resources', resources);
  }
  if (!isSeq(resources)) throw new UserError('"resources" must be a list', at(isNode(resources) ? resources.range?.[0] : undefined));
  const present = new Set(resources.items.map((item) => (isScalar(item) ? String(item.value) : undefined)));
  const missing = entries.filter((entry) => !present.has(entry));
  if (missing.length === 0) return text;
  for (const entry of missing) resources.add(doc.createNode(entry));
  resources.flow = false;
  return doc.toString({ lineWidth: 0, indentSeq: true });
}

/**
 * Takes each of `entries` out of the `resources` list of a kustomization.yaml, keeping
 * everything else in the file; the inverse of {@link addResources}.
 */
export function removeResources(text: string, entries: readonly string[], file: string): string {
  const doc = parseKustomization(text, file);
  const resources = isMap(doc.contents) ? doc.contents.get('resources', true) : undefined;
  if (!isSeq(resources)) return text;
  const before = resources.items.length;
  resources.items = resources.items.filter((item) => !(isScalar(item) && entries.includes(String(item.value))));
  if (resources.items.length === before) return text;
  return doc.toString({ lineWidth: 0, indentSeq: true });
}

/**
 * A kustomization.yaml without the items of its `key` list that `drop` picks, and without
 * the key once its list is empty, as in a project that never had them. The inverse of
 * adding entries to `resources`, `patches` or `configurations`: the lines of the dropped
 * items are cut from the text, so everything else stays byte for byte.
 */
export function removeListItems(text: string, key: string, drop: (item: unknown) => boolean, file: string): string {
  const doc = parseKustomization(text, file);
  const pairs = isMap(doc.contents) ? doc.contents.items : [];
  const index = pairs.findIndex((pair) => isScalar(pair.key) && pair.key.value === key);
  const pair = pairs[index];
  const list = pair?.value;
  if (!pair || !isScalar(pair.key) || !isSeq(list)) return text;
  const dropped = list.items.filter((item) => drop(item));
  if (dropped.length === 0) return text;
  if (list.flow) {
    // `[a, b]` on one line has no lines to cut: the document is written anew.
    list.items = list.items.filter((item) => !dropped.includes(item));
    if (list.items.length === 0) doc.delete(key);
    return doc.toString({ lineWidth: 0, indentSeq: true });
  }
  const span = (node: { range?: [number, number, number] | null }) => ({ start: lineStart(text, node.range![0]), end: lineEnd(text, node.range![1]) });
  if (dropped.length < list.items.length) {
    return dropped.map((item) => span(item as { range?: [number, number, number] })).reduceRight((out, cut) => out.slice(0, cut.start) + out.slice(cut.end), text);
  }
  let end = span(list).end;
  // The blank line YAML writes between the last key and the file's closing comment came with the key.
  if (index === pairs.length - 1) while (text.startsWith('\n', end)) end += 1;
  return text.slice(0, lineStart(text, pair.key.range![0])) + text.slice(end);
}

/** The offset where the line holding `offset` starts. */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset after the line break of the line holding the character before `end`. */
function lineEnd(text: string, end: number): number {
  const newline = text.indexOf('\n', Math.max(end - 1, 0));
  return newline === -1 ? text.length : newline + 1;
}

