/**
 * The operator's code compiled on every save by the project's TypeScript's watch program, kept warm
 * between saves (only what a change touches is checked again), into a folder of the
 * session's own so the project's dist/ is left alone. A build with any error emits
 * nothing: the last good output stays in place for the operator that runs it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { ts as Ts } from 'ts-morph';
import { UserError } from '../errors.js';

type Diagnostic = Ts.Diagnostic;

/** The project's own TypeScript (a devDependency of every scaffold): its version and its lib files. */
function projectTypeScript(root: string): typeof Ts {
  try {
    return createRequire(join(root, 'package.json'))('typescript') as typeof Ts;
  } catch {
    throw new UserError(`typescript is not installed in ${root}`, undefined, 'run npm install');
  }
}

/** Editors save in several steps (truncate, write, rename); changes this close together are one build. */
const SETTLE_MS = 50;

/** The outcome of one build. */
export type BuildResult = { ok: true } | { ok: false; errors: string };

/** A running watch; `close` stops it. */
export interface CompileWatch {
  close(): void;
}

/**
 * Watches the project's sources (its tsconfig.build.json, else tsconfig.json) and builds to
 * `outDir` at start and after each change, calling `onBuild` with the outcome.
 */
export function watchCompile(root: string, outDir: string, onBuild: (result: BuildResult) => void): CompileWatch {
  const configPath = ['tsconfig.build.json', 'tsconfig.json'].map((name) => join(root, name)).find((path) => existsSync(path));
  if (!configPath) throw new UserError(`${root} has no tsconfig.json`);
  const ts = projectTypeScript(root);
  const formatHost: Ts.FormatDiagnosticsHost = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  const format = (diagnostics: readonly Diagnostic[]) => ts.formatDiagnostics(diagnostics, formatHost).trimEnd();
  let configErrors: Diagnostic[] = [];
  const host = ts.createWatchCompilerHost(
    configPath,
    // Declarations and build info are of no use to a process that only runs the code.
    { outDir, noEmitOnError: true, declaration: false, declarationMap: false, incremental: false, composite: false },
    ts.sys,
    ts.createEmitAndSemanticDiagnosticsBuilderProgram,
    (diagnostic) => configErrors.push(diagnostic),
    // TypeScript's own "Starting compilation…" lines: the session prints its own.
    () => undefined,
  );
  // TypeScript waits 250 ms after a change before it builds; an editor's save settles sooner.
  const setTimer = host.setTimeout?.bind(host);
  if (setTimer) host.setTimeout = (callback, ms, ...args) => setTimer(callback, Math.min(ms, SETTLE_MS), ...args);
  host.afterProgramCreate = (program) => {
    const diagnostics = [
      ...configErrors,
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getOptionsDiagnostics(),
      ...program.getSyntacticDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program.getSemanticDiagnostics(),
    ];
    configErrors = [];
    if (diagnostics.length > 0) return onBuild({ ok: false, errors: format(diagnostics) });
    const emitted = program.emit();
    if (emitted.diagnostics.length > 0) return onBuild({ ok: false, errors: format(emitted.diagnostics) });
    onBuild({ ok: true });
  };
  const watch = ts.createWatchProgram(host);
  return { close: () => watch.close() };
}
