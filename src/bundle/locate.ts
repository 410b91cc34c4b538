import { isCollection, isMap, isNode, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml';
import { UserError } from '../errors.js';

/** One YAML document of a file, with what it takes to say where a field of it is. */
export interface LocatedDocument {
  file: string;
  value: unknown;
  /** The 1-based line of the node at `path` (or of its nearest existing parent). */
  lineOf(path: readonly (string | number)[]): number;
}

/**
 * Parses every document of a YAML file, keeping positions for messages. A syntax error is a
 * {@link UserError} at its line and column.
 */
export function parseLocated(text: string, file: string): LocatedDocument[] {
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: counter, prettyErrors: false });
  if (!Array.isArray(docs)) return [];
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) {
      const { line, col } = counter.linePos(error.pos[0]);
      throw new UserError(`not valid YAML: ${error.message.split('\n')[0]}`, { file, line, column: col });
    }
  }
  return docs
    .filter((doc) => doc.contents !== null)
    .map((doc) => ({ file, value: doc.toJS() as unknown, lineOf: (path) => counter.linePos(nodeAt(doc, path).range?.[0] ?? 0).line }));
}

/** The node at `path`; for a missing key, the key of its nearest parent entry, where the user adds it. */
function nodeAt(doc: Document, path: readonly (string | number)[]): Node {
  let node = doc.contents as Node;
  let where = node;
  for (const key of path) {
    if (isSeq(node) && typeof key === 'number' && isNode(node.items[key])) {
      node = where = node.items[key] as Node;
    } else if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
      if (!pair) break;
      where = isNode(pair.key) ? pair.key : where;
      if (!isNode(pair.value)) break;
      node = pair.value;
      if (isCollection(node)) where = isNode(pair.key) ? pair.key : node;
      else where = node;
    } else break;
  }
  return where;
}
