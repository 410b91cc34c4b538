import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The move every operator makes: a CRD embeds a pod template from @opgen/runtime/api, and
// its reconcile puts that template into a Deployment it writes. Compiled by tsc with the
// project's settings, against the runtime's sources.

const src = fileURLToPath(new URL('../../src/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'opgen-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The reconcile of a CRD whose spec embeds `template` of type `templateType`. */
function operator(templateType: string): string {
  return `
import { controller, kinds, type Manager } from '${src}index.js';
import { defineKind, type ObjectMeta, type PodTemplateSpec, type Quantity, type ResourceRequirements } from '${src}api/index.js';

export interface WebApp {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: { replicas: number; template: ${templateType}; resources?: ResourceRequirements };
}
export const WebApp = defineKind<WebApp, true>({ group: 'example.com', version: 'v1', kind: 'WebApp', plural: 'webapps', namespaced: true });

export function setup(mgr: Manager): void {
  controller(mgr)
    .for(WebApp)
    .owns(kinds.Deployment)
    .reconcile(async (app, ctx) => {
      const labels = { app: app.metadata.name };
      await ctx.apply(kinds.Deployment, {
        metadata: { name: app.metadata.name, namespace: app.metadata.namespace },
        spec: { replicas: app.spec.replicas, selector: { matchLabels: labels }, template: app.spec.template },
      });
      const deployment: kinds.Deployment = {
        metadata: { name: app.metadata.name },
        spec: { selector: { matchLabels: labels }, template: structuredClone(app.spec.template) as PodTemplateSpec },
      };
      await ctx.create(kinds.Deployment, deployment);
      const divisor: Quantity | undefined = deployment.spec?.template.spec?.containers[0]?.env?.[0]?.valueFrom?.resourceFieldRef?.divisor;
      return divisor === undefined ? undefined : { requeueAfter: 1 };
    });
}
`;
}

/** The messages tsc gives for each of `sources` (by name), compiled as one program. */
function diagnostics(sources: Record<string, string>): Record<string, string[]> {
  const files = Object.entries(sources).map(([name, source]) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, source);
    return [name, file] as const;
  });
  const program = ts.createProgram(files.map(([, file]) => file), {
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [fileURLToPath(new URL('../../../node_modules/@types', import.meta.url))],
  });
  const all = ts.getPreEmitDiagnostics(program);
  return Object.fromEntries(
    files.map(([name, file]) => [name, all.filter((d) => d.file?.fileName === file).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '))]),
  );
}

let compiled: Record<string, string[]> = { same: [], other: [] };
// One program for both cases: tsc over the runtime's sources takes seconds.
beforeAll(() => {
  compiled = diagnostics({ same: operator('PodTemplateSpec'), other: operator('{ spec: { containers: { name: number }[] } }') });
}, 120_000);

describe('one type universe for built-in kinds', () => {
  it("a CRD's PodTemplateSpec goes into a kinds.Deployment unchanged, through ctx.apply and ctx.create", () => {
    expect(compiled.same).toEqual([]);
  });

  it('a template of another type does not (the check can fail)', () => {
    expect(compiled.other!.length).toBeGreaterThan(0);
    expect(compiled.other!.join('\n')).toMatch(/not assignable/);
  });
});
