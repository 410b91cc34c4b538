/**
 * The CRDs of an input text: every YAML document that is an `apiextensions.k8s.io/v1`
 * CustomResourceDefinition (or a List of them, as `kubectl get crd -o yaml` prints), each
 * served version with a structural schema. Other objects beside CRDs are skipped (a
 * release's bundle has a Namespace or an admission policy too); an input without any CRD,
 * or a CRD that cannot be imported, is a one-line error at its line.
 *
 * @module
 */
import { LineCounter, parseAllDocuments } from 'yaml';
import { UserError } from '../errors.js';
import type { CustomResourceDefinition } from '../crd/types.js';
import { checkStructural } from '../validation/structural.js';

/** A CRD of the input and the line its document starts on. */
export interface InputCrd {
  crd: CustomResourceDefinition;
  line: number;
}

/**
 * The CRDs in `text`, read from `file` (a path, a URL or `-`).
 *
 * @throws UserError at the first document that is not a usable CRD.
 */
export function readCrds(text: string, file: string): InputCrd[] {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines });
  const crds: InputCrd[] = [];
  let other: { kind: string; line: number } | undefined;
  for (const doc of docs) {
    // The line of the object itself, not of the `---` before it.
    const line = lines.linePos(doc.contents?.range[0] ?? doc.range[0]).line;
    const bad = doc.errors[0];
    if (bad) throw new UserError(`not YAML: ${bad.message.split('\n')[0]}`, { file, line: bad.linePos?.[0].line ?? line });
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    const objects = isObject(value) && Array.isArray(value.items) && /List$/.test(String(value.kind)) ? value.items : [value];
    for (const object of objects) {
      if (isObject(object) && object.kind === 'CustomResourceDefinition') crds.push({ crd: checkCrd(object, { file, line }), line });
      else other ??= { kind: isObject(object) && typeof object.kind === 'string' ? `a ${object.kind}` : 'no Kubernetes object', line };
    }
  }
  if (!crds.length && other) throw new UserError(`not a CustomResourceDefinition: ${other.kind}`, { file, line: other.line });
  if (!crds.length) throw new UserError('no CustomResourceDefinition in the input', { file });
  return crds;
}

function checkCrd(value: Record<string, unknown>, at: { file: string; line: number }): CustomResourceDefinition {
  const crd = value as unknown as CustomResourceDefinition;
  const name = (crd.metadata as { name?: string } | undefined)?.name ?? '(no name)';
  if (value.apiVersion !== 'apiextensions.k8s.io/v1') {
    throw new UserError(`CRD ${name}: apiVersion ${String(value.apiVersion)} is not apiextensions.k8s.io/v1`, at, 'the API server has served only v1 CRDs since Kubernetes 1.22');
  }
  const spec = crd.spec as Partial<CustomResourceDefinition['spec']> | undefined;
  if (!spec?.group || !spec.names?.kind || !spec.names.plural || !Array.isArray(spec.versions)) throw new UserError(`CRD ${name}: spec needs group, names.kind, names.plural and versions`, at);
  for (const version of spec.versions) {
    if (!version.served) continue;
    const schema = version.schema?.openAPIV3Schema;
    if (!isObject(schema)) throw new UserError(`CRD ${name} version ${version.name}: no structural schema (schema.openAPIV3Schema is missing)`, at);
    const problem = checkStructural(schema)[0];
    if (problem) throw new UserError(`CRD ${name} version ${version.name}: no structural schema: ${problem.path || '(root)'}: ${problem.message}`, at);
  }
  return crd;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
