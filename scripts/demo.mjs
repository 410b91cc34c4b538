#!/usr/bin/env node
// `npm run demo [-- <dir>]`: scaffolds the DemoVolume operator of Civo's kubebuilder tutorial
// with opgen into <dir> (default ./demo-volume-operator), runs it against a local control
// plane (etcd, kube-apiserver, kube-controller-manager), shows the PersistentVolumeClaim it
// creates for the sample DemoVolume, then stops everything. Output of the tools it runs goes
// to log files; a failure prints one line naming the step and its log.
import { spawn } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const example = join(repo, 'examples', 'demo-volume');
// What a user writes by hand after `opgen create api`; everything else opgen generates.
const handWritten = ['src/api/v1/demovolume_types.ts', 'src/controllers', 'config/samples/storage_v1_demovolume.yaml'];
const sample = 'demovolume-sample';

const logs = mkdtempSync(join(tmpdir(), 'opgen-demo-'));
const started = Date.now();
const cleanups = [];
let interrupted = false;

const step = (text) => process.stdout.write(`▸ ${text}\n`);

class StepError extends Error {}

/** Runs a command with its output in a log file; rejects with a one-line StepError. */
function run(label, command, args, options = {}) {
  const log = join(logs, `${label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.log`);
  return new Promise((resolvePromise, reject) => {
    const out = createWriteStream(log);
    const child = spawn(command, args, { cwd: options.cwd ?? repo, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let lastError = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      out.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      out.write(chunk);
      lastError = String(chunk).split('\n').filter((line) => line.trim() && !line.startsWith('npm warn')).pop() ?? lastError;
      options.onStderr?.(chunk);
    });
    child.on('error', (error) => reject(new StepError(`${label}: ${error.message}`)));
    child.on('close', (code) => {
      out.end();
      if (code === 0) return resolvePromise(stdout);
      const said = lastError ? `: ${lastError.trim().replace(/^error: /, '')}` : ` (exit ${code ?? 'signal'})`;
      reject(new StepError(`${label} failed${said} (full output: ${log})`));
    });
  });
}

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((max, entry) => Math.max(max, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

async function buildOpgen() {
  const stale = [['src', 'dist'], ['runtime/src', 'runtime/dist']].some(([src, out]) => newest(join(repo, out)) < newest(join(repo, src)));
  if (!stale) return step('opgen CLI and runtime: up to date');
  step('building the opgen CLI and runtime (npm run build)');
  await run('npm run build', 'npm', ['run', 'build']);
}

/**
 * The control plane as a generated project's tests find it: KUBEBUILDER_ASSETS, the cache,
 * else a verified download (a Go build only when nothing can be downloaded), with progress.
 */
async function controlPlaneBinaries() {
  const testing = await import(pathToFileURL(join(repo, 'runtime/dist/testing/index.js')).href);
  const binaries = await testing.resolveBinaries({ controllerManager: true, kubectl: true });
  step(`control plane binaries: ${dirname(binaries.kubeApiServer)}`);
  return dirname(binaries.kubeApiServer);
}

/** The `opgen …` commands of the example's README, with its relative file: specs made absolute. */
function readmeCommands() {
  const readme = readFileSync(join(example, 'README.md'), 'utf8');
  const block = /<!-- opgen:commands -->([\s\S]*?)<!-- \/opgen:commands -->/.exec(readme)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('opgen ') && line !== 'opgen manifests')
    .map((line) => line.replace('file:../../runtime', `file:${join(repo, 'runtime')}`).replace('file:../..', `file:${repo}`));
}

/** Creates `dir` unless it exists empty; returns whether it was created. */
function prepareDirectory(dir) {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new StepError(`${dir} is not empty; pass another directory: npm run demo -- <dir>`);
  }
  const created = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  return created;
}

async function scaffold(dir) {
  const opgen = (...args) => run(`opgen ${args[0]}`, process.execPath, [join(repo, 'bin/opgen.js'), ...args], { cwd: dir });
  for (const command of readmeCommands()) {
    step(command);
    await opgen(...command.split(/\s+/).slice(1));
  }
  step(`copying the hand-written types and controller from ${relative(process.cwd(), example) || '.'}`);
  for (const file of handWritten) cpSync(join(example, file), join(dir, file), { recursive: true });
  step('opgen manifests');
  await opgen('manifests');
  step('npm install');
  await run('npm install', 'npm', ['install', '--no-audit', '--no-fund'], { cwd: dir });
  step('npm run build');
  await run('npm run build (project)', 'npm', ['run', 'build'], { cwd: dir });
}

/** The operator's process; its JSON log lines are kept for the summary. */
function startOperator(dir, kubeconfig) {
  const child = spawn(process.execPath, ['dist/main.js', '--health-probe-bind-address=0'], {
    cwd: dir,
    env: { ...process.env, KUBECONFIG: kubeconfig, LOG_FORMAT: 'json' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines = [];
  const log = createWriteStream(join(logs, 'operator.log'));
  createInterface({ input: child.stderr }).on('line', (line) => {
    log.write(`${line}\n`);
    try {
      lines.push(JSON.parse(line));
    } catch {
      lines.push({ level: 'info', msg: line });
    }
  });
  let exitCode;
  const exited = new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise((exitCode = code))));
  return {
    lines,
    exited,
    running: () => exitCode === undefined,
    async stop() {
      if (exitCode === undefined) child.kill('SIGTERM');
      const code = await exited;
      log.end();
      return code;
    },
  };
}

async function waitFor(what, check, timeoutMs, operator) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!operator.running()) {
      throw new StepError(`the operator exited while waiting for ${what}; its log is in ${join(logs, 'operator.log')}`);
    }
    if (await check()) return;
    await sleep(250);
  }
  throw new StepError(`timed out after ${timeoutMs / 1000} s waiting for ${what}; the operator's log is in ${join(logs, 'operator.log')}`);
}

function formatLogLine(entry) {
  const { time, level, msg, namespace, name, pid, controller, controllerGroup, controllerKind, reconcileID, ...rest } = entry;
  const where = name ? ` ${namespace ? `${namespace}/` : ''}${name}` : '';
  const fields = Object.entries(rest).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `    ${String(time ?? '').slice(11, 23)}  ${String(level).padEnd(5)} ${msg}${where}${fields.length ? `  ${fields.join(' ')}` : ''}`;
}

async function runOnControlPlane(dir, assets) {
  step('starting etcd, kube-apiserver and kube-controller-manager');
  process.env.KUBEBUILDER_ASSETS = assets;
  const testing = await import(pathToFileURL(join(repo, 'runtime/dist/testing/index.js')).href);
  const controlPlane = await testing.startControlPlane({ controllerManager: true });
  cleanups.push(() => controlPlane.stop());
  const env = { ...process.env, KUBECONFIG: controlPlane.kubeconfigPath };
  const kubectl = (...args) => run(`kubectl ${args[0]}`, controlPlane.kubectlPath, args, { cwd: dir, env });

  step('npm run crds:install');
  await run('npm run crds:install', 'npm', ['run', 'crds:install'], { cwd: dir, env: { ...env, KUBECTL: controlPlane.kubectlPath } });
  await kubectl('wait', '--for=condition=Established', '--timeout=60s', 'crd/demovolumes.storage.civo.com');

  step('starting the operator: node dist/main.js');
  const operator = startOperator(dir, controlPlane.kubeconfigPath);
  cleanups.unshift(() => operator.stop());

  step('kubectl apply -f config/samples/storage_v1_demovolume.yaml');
  await kubectl('apply', '-f', 'config/samples/storage_v1_demovolume.yaml');
  step('waiting for the operator to create the PersistentVolumeClaim');
  await waitFor('the PersistentVolumeClaim', async () => (await kubectl('get', 'pvc', sample, '--ignore-not-found', '-o', 'name')).trim() !== '', 60_000, operator);
  await waitFor('the DemoVolume\'s status', async () => (await kubectl('get', 'demovolume', sample, '-o', 'jsonpath={.status.name}')).trim() !== '', 30_000, operator);

  process.stdout.write(`\n$ kubectl get demovolumes,pvc -o wide\n${await kubectl('get', 'demovolumes,pvc', '-o', 'wide')}\n`);
  const about = operator.lines.filter((entry) => entry.name === sample || entry.pvc === sample || ['warn', 'error', 'fatal'].includes(entry.level));
  process.stdout.write(`The operator's log lines about ${sample}:\n${about.map(formatLogLine).join('\n')}\n\n`);

  step('stopping the operator and the control plane');
  const code = await operator.stop();
  await controlPlane.stop();
  cleanups.length = 0;
  if (code !== 0) throw new StepError(`the operator exited with code ${code} on SIGTERM; its log is in ${join(logs, 'operator.log')}`);
}

async function cleanUp() {
  const pending = cleanups.splice(0);
  for (const cleanup of pending) await cleanup().catch(() => {});
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stdout.write('\n▸ interrupted: stopping the operator and the control plane\n');
    void cleanUp().finally(() => process.exit(130));
  });
}

async function main() {
  const dir = resolve(process.argv[2] ?? 'demo-volume-operator');
  const shown = relative(process.cwd(), dir).startsWith('..') ? dir : `./${relative(process.cwd(), dir)}`;
  process.stdout.write(`opgen demo: Civo's DemoVolume operator, written with opgen, in ${shown}\n`);
  const created = prepareDirectory(dir);
  // Until opgen init has written something, a failure leaves no trace of the directory.
  cleanups.push(async () => {
    if (created && existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  });
  await buildOpgen();
  const assets = await controlPlaneBinaries();
  await scaffold(dir);
  cleanups.length = 0;
  await runOnControlPlane(dir, assets);

  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `Done in ${seconds} s. The project is in ${shown} (logs of this run: ${logs}).\n` +
      `Run it against a real cluster (the current kubectl context):\n` +
      `  cd ${shown}\n` +
      `  npm run crds:install\n` +
      `  npm start                     # the operator, here, until Ctrl-C\n` +
      `  kubectl apply -f config/samples/storage_v1_demovolume.yaml\n` +
      `  kubectl get demovolumes,pvc\n` +
      `or build its image and deploy it: see ${join(shown, 'README.md')}.\n`,
  );
}

main().catch(async (error) => {
  if (interrupted) return;
  await cleanUp();
  const message = error instanceof StepError ? error.message : (error?.message ?? String(error)).split('\n')[0];
  process.stderr.write(`demo: error: ${message}\n`);
  process.exit(1);
});

