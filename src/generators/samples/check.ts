import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { UserError } from '../../errors.js';
import type { SchemaProblem } from '../../validation/path.js';
import { validateValue } from '../../validation/value.js';
import { samplePath } from '../../project/sample-path.js';
import { sampleObject, sampleYaml, type SampleInput, type SampleOptions } from '../samples.js';

/**
 * The samples on disk (`files`: project-relative path → text) that their kind's schema no
 * longer accepts, typically after the types changed: one located problem per finding, at
 * the sample's line and column of the offending field (or of its parent when the field is
 * missing). Only the sample opgen names for a kind version is checked, and only when it
 * still declares that kind; CEL rules are not evaluated.
 */
export function checkSamples(input: readonly SampleInput[], files: ReadonlyMap<string, string>, options: SampleOptions): UserError[] {
  const problems: UserError[] = [];
  for (const resource of input) {
    const path = samplePath(resource, options.domain);
    const text = files.get(path);
    if (text === undefined) continue;
    // Most samples are still exactly what opgen writes for today's schema: then the parsed
    // sample is that object, and parsing it (the YAML parser's cold start is most of this
    // check) is only needed to place a problem.
    const own = sampleObject(resource, options.projectName);
    if (text === sampleYaml(resource, options.projectName) && sampleProblems(resource, own).length === 0) continue;
    const lineCounter = new LineCounter();
    // YAML 1.1, as opgen writes samples and as kubectl reads them (`yes` is a boolean, `0755` octal).
    const doc = parseDocument(text, { version: '1.1', lineCounter, prettyErrors: false });
    const at = (node: Node | undefined) => {
      const offset = node?.range?.[0];
      if (offset === undefined) return { file: path };
      const { line, col } = lineCounter.linePos(offset);
      return { file: path, line, column: col };
    };
    if (doc.errors.length > 0) {
      const pos = lineCounter.linePos(doc.errors[0]!.pos[0]);
      problems.push(new UserError(`sample is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`, { file: path, line: pos.line, column: pos.col }));
      continue;
    }
    const object = doc.toJS() as unknown;
    if (!isObject(object) || object.apiVersion !== `${resource.group}/${resource.version}` || object.kind !== resource.kind) continue;
    for (const problem of sampleProblems(resource, object)) {
      problems.push(
        new UserError(
          `${problem.path || 'the object'} ${problem.message}: the ${resource.version} ${resource.kind} schema no longer accepts this sample`,
          at(nodeAt(doc.contents as Node | null, problem.path)),
          'edit it, or delete it and run opgen manifests for a new one',
        ),
      );
    }
  }
  return problems;
}

function sampleProblems(resource: SampleInput, object: Record<string, unknown>): SchemaProblem[] {
  // The API server fills in metadata; the schema of a CRD says nothing about it.
  const { metadata: _metadata, ...checked } = object;
  return validateValue({ ...resource.schema, required: resource.schema.required?.filter((f) => f !== 'metadata') }, checked);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The deepest node of `root` on the data path `spec.items[2].name` (`[*]` and quoted keys stop the walk). */
function nodeAt(root: Node | null, path: string): Node | undefined {
  let node: Node | undefined = root ?? undefined;
  for (const segment of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    const index = /^\[(\d+)\]$/.exec(segment);
    const next: unknown = index ? (isSeq(node) ? node.items[Number(index[1])] : undefined) : isMap(node) ? node.get(segment, true) : undefined;
    if (next === undefined || next === null || typeof next !== 'object') break;
    node = next as Node;
  }
  return node;
}
