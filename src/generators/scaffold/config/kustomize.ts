import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { UserError } from '../../../errors.js';
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
  const at = (offset: number | undefined) => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { file, line, column: col };
  };
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new UserError(`corrupt kustomization: ${message}`, at(error.pos[0]));
  }
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
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new UserError(`corrupt kustomization: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`, { file, line, column: col });
  }
  const resources = isMap(doc.contents) ? doc.contents.get('resources', true) : undefined;
  if (!isSeq(resources)) return text;
  const before = resources.items.length;
  resources.items = resources.items.filter((item) => !(isScalar(item) && entries.includes(String(item.value))));
  if (resources.items.length === before) return text;
  return doc.toString({ lineWidth: 0, indentSeq: true });
}
