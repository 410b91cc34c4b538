/**
 * One `opgen dev` session: the cluster, the CRDs and samples, and the operator rebuilt and
 * restarted on every save. A save that does not compile leaves the running operator alone;
 * a save to the API types regenerates the manifests and re-applies the CRDs before the new
 * operator starts. SIGINT/SIGTERM stop the operator, then the cluster, and the command ends
 * with 0; only the session's own folder (`.opgen/dev`) is touched.
 */
import { copyFileSync, rmSync } from 'node:fs';
import type { ReconcileRecord } from '@opgen/runtime/observe';
import { join, relative, resolve } from 'node:path';
import { formatUserError, UserError, UserErrors } from '../errors.js';
import { loadProject } from '../project/load.js';
import { paint } from '../ui.js';
import { apiFingerprint } from './api-fingerprint.js';
import { crdKinds, startDevCluster, type DevCluster } from './cluster.js';
import { watchCompile, type BuildResult } from './compile.js';
import { prepareOperator, PRELOAD_TEMPLATE, type OperatorProcess, type SpareOperator } from './operator.js';
import { importProjectCache, importProjectTesting } from './project-runtime.js';
import { operatorLine } from './operator-log.js';
import { watchClusterObjects, type ClusterObjects } from './page/objects.js';
import { startDevPage, type DevPage } from './page/server.js';
import { reconcileLine } from './reconcile-line.js';

export interface DevOptions {
  dir: string;
  /** Apply config/samples once the CRDs are installed. */
  samples?: boolean;
  /** A context of the user's kubeconfig instead of the memory cluster. */
  context?: string;
  /** Print the operator's JSON log lines as they are, besides one line per reconcile. */
  logs?: boolean;
  /** Ends the session (tests); the CLI ends it on SIGINT and SIGTERM. */
  signal?: AbortSignal;
  /** What `opgen manifests` runs, for the project at `dir` (passed in: the commands sit above this folder). */
  generateManifests: (dir: string) => Promise<void>;
}

const say = (text: string) => process.stdout.write(`${paint('cyan', 'dev')} ${text}\n`);
const complain = (text: string) => process.stderr.write(`${paint('red', 'dev', process.stderr)} ${text}\n`);

/** Runs until the signal or SIGINT/SIGTERM; resolves once everything it started has stopped. */
export async function runDev(options: DevOptions): Promise<void> {
  const root = resolve(options.dir);
  await loadProject(root, 'opgen dev');
  const stopping = new AbortController();
  const stop = () => stopping.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  options.signal?.addEventListener('abort', stop);
  const devDir = join(root, '.opgen', 'dev');
  let cluster: DevCluster | undefined;
  let operator: OperatorProcess | undefined;
  let watch: { close(): void } | undefined;
  let session: Session | undefined;
  let page: DevPage | undefined;
  let objects: ClusterObjects | undefined;
  try {
    const testing = importProjectTesting(root);
    await regenerate(options.generateManifests, root);
    cluster = await startDevCluster(testing, join(devDir, 'kubeconfig'), options.context);
    say(`${cluster.description}; kubectl --kubeconfig ${relative(process.cwd(), cluster.kubeconfigPath) || cluster.kubeconfigPath}`);
    await installCRDs(root, cluster);
    if (cluster.memoryConnection) objects = watchClusterObjects(importProjectCache(root), cluster.memoryConnection, crdKinds(crdDirs(root)));
    page = await startDevPage(objects);
    say(`live page ${page.url}`);
    if (options.samples) say(`applied ${await cluster.applyManifests(join(root, 'config', 'samples'))} sample object(s) from config/samples`);
    const preload = join(devDir, 'preload.mjs');
    copyFileSync(PRELOAD_TEMPLATE, preload);
    const shown = page;
    const launch = {
      root,
      kubeconfigPath: cluster.kubeconfigPath,
      preload,
      onLine: (line: string) => {
        const printed = options.logs ? line : operatorLine(line);
        if (printed !== undefined) process.stdout.write(`${printed}\n`);
      },
      onReconcile: (record: ReconcileRecord) => {
        say(reconcileLine(record));
        objects?.follow(record.calls);
        shown.publish(record);
      },
    };
    const current: Session = (session = { root, generateManifests: options.generateManifests, cluster, objects, outDir: join(devDir, 'dist'), apiSeen: apiFingerprint(root), spare: prepareOperator(launch), prepare: () => prepareOperator(launch) });
    // Builds come one at a time; a build finished while the last restart runs waits for it.
    let chain = Promise.resolve();
    watch = watchCompile(root, session.outDir, (result) => {
      chain = chain.then(async () => {
        if (stopping.signal.aborted) return;
        try {
          operator = await afterBuild(current, result, operator);
        } catch (error) {
          // The cluster refused the new CRDs, or generating them failed unexpectedly: said, and the session goes on.
          complain(error instanceof Error ? error.message : String(error));
        }
      });
    });
    await new Promise<void>((done) => (stopping.signal.aborted ? done() : stopping.signal.addEventListener('abort', () => done(), { once: true })));
    watch.close();
    await chain;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    options.signal?.removeEventListener('abort', stop);
    watch?.close();
    await operator?.stop();
    await session?.spare.discard();
    objects?.close();
    await page?.close();
    await cluster?.close();
    rmSync(join(devDir, 'dist'), { recursive: true, force: true });
    rmSync(join(devDir, 'preload.mjs'), { force: true });
  }
  say('stopped');
}

interface Session {
  root: string;
  generateManifests: (dir: string) => Promise<void>;
  cluster: DevCluster;
  /** What the live page shows of the memory cluster; undefined on a real cluster. */
  objects: ClusterObjects | undefined;
  outDir: string;
  /** The API files' fingerprint the installed CRDs were made from. */
  apiSeen: string;
  /** The process the next operator runs in, started ahead. */
  spare: SpareOperator;
  prepare(): SpareOperator;
}

/** After a build: nothing on errors (the running operator stays); else new CRDs if the API changed, then a restart. */
async function afterBuild(session: Session, result: BuildResult, running: OperatorProcess | undefined): Promise<OperatorProcess | undefined> {
  if (!result.ok) {
    complain(`the code does not compile; ${running ? 'the last good operator keeps running' : 'no operator runs'} until a save fixes it:\n${result.errors}`);
    return running;
  }
  const api = apiFingerprint(session.root);
  if (api !== session.apiSeen) {
    if (!(await regenerate(session.generateManifests, session.root, true))) {
      complain(`${running ? 'the last good operator keeps running' : 'no operator runs'} until the API types generate again`);
      return running;
    }
    await installCRDs(session.root, session.cluster);
    session.objects?.watchKinds(crdKinds(crdDirs(session.root)));
    session.apiSeen = api;
  }
  if (running) await running.stop();
  const operator = session.spare.activate(join(session.outDir, 'main.js'));
  session.spare = session.prepare();
  say(`operator ${running ? 'restarted' : 'started'} (pid ${operator.pid})`);
  void operator.exited.then((code) => {
    if (code !== 0 && code !== 'SIGTERM' && code !== 'SIGKILL') complain(`the operator exited with ${code}; save a change to start it again`);
  });
  return operator;
}

/**
 * Runs what `opgen manifests` runs. At start a user error ends the session; later (`keepGoing`)
 * it is printed and the session goes on with the CRDs it has. Returns whether it succeeded.
 */
async function regenerate(generateManifests: (dir: string) => Promise<void>, root: string, keepGoing = false): Promise<boolean> {
  try {
    await generateManifests(root);
    return true;
  } catch (error) {
    if (!keepGoing || !(error instanceof UserError || error instanceof UserErrors)) throw error;
    for (const e of error instanceof UserErrors ? error.errors : [error]) complain(formatUserError(e));
    return false;
  }
}

/** Where the project's CRDs are: its own, and those of kinds it imported. */
const crdDirs = (root: string) => [join(root, 'config', 'crd', 'bases'), join(root, 'config', 'crd', 'external')];

async function installCRDs(root: string, cluster: DevCluster): Promise<void> {
  const names = await cluster.installCRDs(crdDirs(root));
  say(names.length > 0 ? `installed CRDs ${names.join(', ')}` : 'no CRDs in config/crd/bases or config/crd/external');
}
