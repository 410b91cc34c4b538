import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@opgen/runtime/testing';
import { describe, expect, it } from 'vitest';
import { opgen } from '../scaffold/run.js';
import { packedProject } from '../scaffold/packed-project.js';
import { devRun, holds } from './dev-run.js';

// `opgen dev` as a user runs it: a freshly scaffolded project with the packed packages
// installed, the project's own opgen run as a process, real kubectl against the served
// memory cluster, a saved change to the controller live without a restart by hand, and
// SIGTERM ending everything. Needs `npm run build` first (the packages are packed from dist/).

const project = packedProject('dev-loop-operator');
const run = devRun(project);
const { kubectl } = run;

const readyMessage = async () => JSON.parse(await kubectl('get', 'widgets', 'widget-sample', '-o', 'json')).status?.conditions?.find((c: { type: string }) => c.type === 'Ready')?.message as string | undefined;

/** The operator pids `opgen dev` announced, in order. */
const operatorPids = () => [...run.output.matchAll(/operator (?:started|restarted) \(pid (\d+)\)/g)].map((m) => Number(m[1]));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pids of every process whose parent is `parent`. */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) children.push(Number(entry));
    } catch {
      // Ended while listing.
    }
  }
  return children;
}

describe('opgen dev', () => {
  it(
    'serves a memory cluster kubectl works against, runs the operator and reloads it on save',
    async () => {
      await project.init('example.com');
      const create = await opgen(project.dir, 'create', 'api', '--group', 'demo', '--version', 'v1', '--kind', 'Widget');
      expect(create.stderr).toBe('');
      const controller = join(project.dir, 'src/controllers/widget_controller.ts');
      const original = readFileSync(controller, 'utf8');
      expect(original).toContain('holds spec.foo`');
      const packageJson = JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8'));
      expect(packageJson.scripts.dev).toBe('opgen dev');

      run.start();
      const dev = run.process;
      const kubeconfig = join(project.dir, '.opgen/dev/kubeconfig');
      await eventually(() => holds(operatorPids().length === 1, `no operator yet:\n${run.output}`), { timeoutMs: 120_000, intervalMs: 200 });
      expect(existsSync(kubeconfig), run.output).toBe(true);
      expect(statSync(kubeconfig).mode & 0o777).toBe(0o600);
      expect(run.output).toContain('installed CRDs widgets.demo.example.com');

      // kubectl: discovery, client-side apply (with its server-side field validation), get. The
      // samples go through their kustomization (-k): with -f, kubectl refuses kustomization.yaml
      // (no apiVersion, no kind) against any API server.
      expect(await kubectl('apply', '-k', 'config/samples/')).toContain('widget.demo.example.com/widget-sample created');
      expect(await kubectl('get', 'widgets')).toMatch(/^NAME\s+AGE\nwidget-sample\s+/);
      // The scaffolded reconcile reports the ConfigMap it keeps.
      await eventually(async () => holds((await readyMessage()) === 'ConfigMap widget-sample-starter holds spec.foo', `message: ${await readyMessage()}\n${run.output}`), { timeoutMs: 60_000, intervalMs: 200 });
      expect(await kubectl('get', 'configmap', 'widget-sample-starter', '-o', 'name')).toBe('configmap/widget-sample-starter');

      // A saved change to the controller is the operator's behaviour without a hand restart.
      writeFileSync(controller, original.replace('holds spec.foo`', 'holds spec.foo, reloaded`'));
      await eventually(async () => holds((await readyMessage()) === 'ConfigMap widget-sample-starter holds spec.foo, reloaded', `message: ${await readyMessage()}\n${run.output}`), { timeoutMs: 60_000, intervalMs: 200 });
      const [first, second] = operatorPids();
      expect(alive(first!)).toBe(false);

      // A save that does not compile is shown; the last good operator keeps running and reconciling.
      writeFileSync(controller, original.replace('holds spec.foo`', 'holds spec.foo` as number'));
      await eventually(() => holds(run.output.includes('the code does not compile; the last good operator keeps running'), `no compile error shown yet:\n${run.output}`), { timeoutMs: 60_000, intervalMs: 200 });
      expect(run.output).toMatch(/widget_controller\.ts\(\d+,\d+\): error TS/);
      expect(operatorPids()).toEqual([first, second]);
      expect(alive(second!)).toBe(true);
      await kubectl('patch', 'widget', 'widget-sample', '--type', 'merge', '-p', '{"spec":{"foo":"bar"}}');
      await eventually(async () => holds(JSON.parse(await kubectl('get', 'configmap', 'widget-sample-starter', '-o', 'json')).data?.foo === 'bar', `the running operator did not reconcile the change:\n${run.output}`), { timeoutMs: 60_000, intervalMs: 200 });

      // SIGTERM: the operator and everything else stop, the command exits 0, the user's files stay.
      const devPid = dev.pid!;
      const children = childrenOf(devPid);
      expect(children).toContain(second);
      dev.kill('SIGTERM');
      const ended = await dev;
      expect(ended.exitCode, run.output).toBe(0);
      expect(run.output).toContain('dev stopped');
      for (const pid of [...children, ...operatorPids()]) expect(alive(pid), `process ${pid} outlived opgen dev`).toBe(false);
      expect(existsSync(kubeconfig)).toBe(false);
      expect(readFileSync(controller, 'utf8')).toContain('as number');
      expect(existsSync(join(project.dir, 'config/samples/demo_v1_widget.yaml'))).toBe(true);
    },
    600_000,
  );
});
