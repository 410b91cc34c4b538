/**
 * `opgen manifests --watch`: keeps the project's sources and their parsed API files in
 * memory and regenerates the manifests on every save under src/. A save that breaks the
 * types prints the located errors and leaves the last good files in place; the next good
 * save writes again. Ctrl-C (SIGINT) or `signal` stops it.
 *
 * @module
 */
import { join, resolve } from 'node:path';
import { type ParsedFiles, type WalkCache, newWalkCache } from '../crd/build.js';
import { clientDependencyErrors } from '../crd/client-dependency.js';
import { UserError, UserErrors, formatUserError } from '../errors.js';
import { apiTexts, generateManifests } from '../generators/manifests.js';
import { resolveMaxDescLen } from '../project/manifests-settings.js';
import { loadProject } from '../project/load.js';
import { operatorNamespace } from '../project/operator-namespace.js';
import type { ProjectConfig } from '../project/model.js';
import { readSources, samplesNotToWrite } from '../project/sources.js';
import { paint } from '../ui.js';
import { watchTree } from './tree.js';
import { applyChanges, formatPlan, type GeneratedFile, planChanges } from '../writer/index.js';

export interface WatchOptions {
  dir: string;
  maxDescLen?: number;
  /** Stops watching when aborted (tests); the CLI stops on SIGINT. */
  signal?: AbortSignal;
}

/** What one watch keeps between saves. */
interface Session {
  root: string;
  project: ProjectConfig;
  maxDescLen?: number;
  sources: Map<string, string>;
  parsed: ParsedFiles;
  walks: WalkCache;
  crdFiles: Map<string, GeneratedFile>;
  /** What this watch last wrote or found up to date, per project-relative path. */
  written: Map<string, string>;
}

/** Editors save in several steps (truncate, write, rename); changes this close together are one save. */
const settleMs = 25;

/** Runs until SIGINT or `options.signal`; resolves once the watcher is closed. */
export async function watchManifests(options: WatchOptions): Promise<void> {
  const root = resolve(options.dir);
  const project = await loadProject(root, 'opgen manifests');
  const session: Session = {
    root,
    project,
    // The flag for this session, else what PROJECT remembers; only a plain run records a new value.
    maxDescLen: resolveMaxDescLen(project, options.maxDescLen).value,
    sources: await readSources(root),
    parsed: new Map(),
    walks: newWalkCache(),
    crdFiles: new Map(),
    written: new Map(),
  };
  // Watching (and Ctrl-C) starts before the first run, so that no save and no SIGINT is missed.
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let queued = false;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (queued) return;
      queued = true;
      running = running.then(() => {
        queued = false;
        return refresh(session).catch(reportInternal);
      });
      void running.then(() => tree.sync());
    }, settleMs);
  };
  const tree = watchTree(join(root, 'src'), schedule);
  let stop!: () => void;
  const stopped = new Promise<void>((done) => {
    stop = () => {
      clearTimeout(timer);
      tree.close();
      process.off('SIGINT', stop);
      options.signal?.removeEventListener('abort', stop);
      void running.then(done, done);
    };
  });
  process.on('SIGINT', stop);
  options.signal?.addEventListener('abort', stop);

  running = regenerate(session).then(
    () => void process.stdout.write(`${paint('dim', 'watching src/ for changes (Ctrl-C to stop)')}\n`),
    (error: unknown) => {
      stop();
      throw error;
    },
  );
  await running;
  await stopped;
  process.stdout.write(`${paint('dim', 'stopped watching')}\n`);
}

/** A bug, not the user's mistake: printed with its stack, and the watch goes on. */
function reportInternal(error: unknown): void {
  process.stderr.write(`${paint('red', 'internal error:', process.stderr)} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}

/** Re-reads src/ and regenerates when a source text changed (a rename or a new folder included). */
async function refresh(session: Session): Promise<void> {
  const sources = await readSources(session.root);
  if (sameTexts(sources, session.sources)) return;
  session.sources = sources;
  await regenerate(session);
}

function sameTexts(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [path, text] of a) if (b.get(path) !== text) return false;
  return true;
}

/** Generates, writes what differs from the last run and prints it; errors are printed, not thrown. */
async function regenerate(session: Session): Promise<void> {
  const started = performance.now();
  let files: GeneratedFile[];
  try {
    const inputs = {
      project: session.project,
      sources: session.sources,
      existingSamples: await samplesNotToWrite(session.root, session.project),
      operatorNamespace: await operatorNamespace(session.root, session.project).catch((error: unknown) => {
        throw error instanceof UserError ? new UserErrors([error]) : error;
      }),
      dependencyErrors: await clientDependencyErrors(session.root, apiTexts(session.root, session.sources)),
    };
    ({ files } = generateManifests(session.root, inputs, { maxDescriptionLength: session.maxDescLen, parsed: session.parsed, walks: session.walks, crdFiles: session.crdFiles }));
  } catch (error) {
    if (!(error instanceof UserErrors)) throw error;
    for (const e of error.errors) process.stderr.write(`${formatUserError(e)}\n`);
    process.stderr.write(`${paint('dim', 'kept the last good files; save again to retry')}\n`);
    return;
  }
  const changed = files.filter((f) => session.written.get(f.path) !== f.content);
  const changes = await planChanges(session.root, changed);
  await applyChanges(session.root, changes);
  for (const file of changed) session.written.set(file.path, file.content);
  const report = formatPlan(changes);
  const took = `${Math.round(performance.now() - started)} ms`;
  process.stdout.write(report ? `${report}\n${paint('dim', `regenerated in ${took}`)}\n` : `${paint('dim', `manifests are up to date (${took})`)}\n`);
}
