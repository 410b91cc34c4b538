import { execFile, spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@opgen/runtime/testing';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));

/** A Prometheus server on loopback, scraping static targets every second. */
export interface Prometheus {
  readonly url: string;
  /** `/api/v1/query` at the current time: the result vector (or matrix), or Prometheus' error. */
  query(expr: string): Promise<{ series: unknown[]; error?: string }>;
  /** `/api/v1/label/<label>/values` for the series `match` selects. */
  labelValues(label: string, match: string): Promise<string[]>;
  /** What it logged, for a failing test. */
  output(): string;
  stop(): Promise<void>;
}

let binary: Promise<string> | undefined;

/**
 * The prometheus binary hack/prometheus/build.sh builds from Go modules (cached after the
 * first build, which takes minutes). Rejects when it cannot be had: the test needs a real one.
 */
export function prometheusBinary(): Promise<string> {
  binary ??= run('bash', [`${repo}hack/prometheus/build.sh`], { maxBuffer: 16 << 20 }).then(({ stdout }) => stdout.trim());
  return binary;
}

/**
 * Starts Prometheus with one scrape job, `job`, over `targets` (host:port, plain HTTP
 * /metrics), each labelled with `labels` as a ServiceMonitor's relabelling would. Resolves
 * once it reports ready.
 */
export async function startPrometheus(job: string, targets: string[], labels: Record<string, string>): Promise<Prometheus> {
  const path = await prometheusBinary();
  const dir = await mkdtemp(join(tmpdir(), 'opgen-prometheus-'));
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    scrape_configs: [{ job_name: job, static_configs: [{ targets, labels }] }],
  };
  // JSON is YAML: Prometheus reads it as its config.
  await writeFile(join(dir, 'prometheus.yml'), JSON.stringify(config));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = join(dir, 'prometheus.log');
  const log = openSync(logFile, 'a');
  const child = spawn(
    path,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', log, log] },
  );
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output = () => readFileSync(logFile, 'utf8');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  const api = async (pathAndQuery: string): Promise<{ status: string; data?: unknown; error?: string }> =>
    (await (await fetch(`${url}${pathAndQuery}`)).json()) as { status: string; data?: unknown; error?: string };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}:\n${output()}`);
    const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus did not become ready in 60 s:\n${output()}`);
    }
    await sleep(200);
  }
  return {
    url,
    output,
    stop,
    async query(expr) {
      const body = await api(`/api/v1/query?query=${encodeURIComponent(expr)}`);
      return body.status === 'success' ? { series: (body.data as { result: unknown[] }).result } : { series: [], error: body.error ?? body.status };
    },
    async labelValues(label, match) {
      const body = await api(`/api/v1/label/${label}/values?match[]=${encodeURIComponent(match)}`);
      return (body.data as string[] | undefined) ?? [];
    },
  };
}
