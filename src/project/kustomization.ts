import { type Document, LineCounter, parseDocument } from 'yaml';
import { UserError } from '../errors.js';

/**
 * The kustomization.yaml `text` (the project's `file`) as a YAML document, or a located
 * one-line error when it is not valid YAML.
 */
export function parseKustomization(text: string, file: string, lineCounter = new LineCounter()): Document {
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new UserError(`corrupt kustomization: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`, { file, line, column: col });
  }
  return doc;
}
