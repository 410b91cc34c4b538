/**
 * Checks that the run-time handles in the API files say what the CRDs say: the
 * `groupVersion` constant of each `groupversion_info.ts`, and the `defineKind<Foo>({…})`
 * constant paired with each Kind. A mismatch would make the operator talk to a resource the
 * API server does not have; only literal values can be compared, spreads are skipped.
 *
 * @module
 */
import type { ObjectLiteralExpression, SourceFile } from 'ts-morph';
import { UserError } from '../errors.js';
import { locationOf } from '../schema/context.js';
import { Node } from '../ts-morph.js';
import type { AssembledCrd } from './assemble.js';
import type { VersionFolder } from './discover.js';

type Expected = Record<string, string | boolean>;

function literalObject(file: SourceFile, name: string, call?: string): ObjectLiteralExpression | undefined {
  let init: Node | undefined = file.getVariableDeclaration(name)?.getInitializer();
  while (init && (Node.isAsExpression(init) || Node.isSatisfiesExpression(init) || Node.isParenthesizedExpression(init))) init = init.getExpression();
  if (call) {
    if (!init || !Node.isCallExpression(init) || init.getExpression().getText() !== call) return undefined;
    init = init.getArguments()[0];
  }
  return init && Node.isObjectLiteralExpression(init) ? init : undefined;
}

function compare(root: string, object: ObjectLiteralExpression, expected: Expected, what: string, errors: UserError[]): void {
  for (const [key, want] of Object.entries(expected)) {
    const prop = object.getProperty(key);
    if (!prop || !Node.isPropertyAssignment(prop)) continue;
    const init = prop.getInitializerOrThrow();
    const actual = Node.isStringLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init) ? init.getLiteralText() : Node.isTrueLiteral(init) ? true : Node.isFalseLiteral(init) ? false : undefined;
    if (actual !== undefined && actual !== want) {
      errors.push(new UserError(`${what} says ${key}: ${JSON.stringify(actual)}, but the CRD has ${JSON.stringify(want)}`, locationOf({ root }, init), `change it to ${JSON.stringify(want)}`));
    }
  }
}

/** Compares each folder's `groupVersion` constant with its markers. */
export function checkGroupVersions(root: string, folders: readonly VersionFolder[], errors: UserError[]): void {
  for (const folder of folders) {
    const object = literalObject(folder.info, 'groupVersion');
    if (object) compare(root, object, { group: folder.group, version: folder.version }, 'groupVersion', errors);
  }
}

/** Compares each Kind's `defineKind` constant with its CRD. */
export function checkKindHandles(root: string, crds: readonly AssembledCrd[], errors: UserError[]): void {
  for (const crd of crds) {
    for (const source of crd.sources.values()) {
      const object = literalObject(source.decl.getSourceFile(), crd.kind, 'defineKind');
      if (!object) continue;
      const expected: Expected = {
        group: crd.group,
        version: source.version,
        kind: crd.kind,
        plural: crd.plural,
        namespaced: crd.crd.spec.scope === 'Namespaced',
      };
      compare(root, object, expected, `defineKind for ${crd.kind}`, errors);
    }
  }
}
