import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll } from 'vitest';
import type { PackedProject } from '../scaffold/packed-project.js';

/** `opgen dev` run as a user runs it, in a packed project; killed after the suite if still running. */
export interface DevRun {
  /** Starts the project's own `opgen dev <args>`. */
  start(...args: string[]): void;
  /** The running command (after `start`). */
  readonly process: ResultPromise<{ cwd: string; all: true; reject: false; env: { NO_COLOR: string } }>;
  /** All it printed so far, stdout and stderr interleaved. */
  readonly output: string;
  /** `kubectl --kubeconfig .opgen/dev/kubeconfig <args>` in the project; rejects on a non-zero exit. */
  kubectl(...args: string[]): Promise<string>;
}

/** Registers the suite's hook that ends a dev session left running. */
export function devRun(project: PackedProject): DevRun {
  let dev: DevRun['process'] | undefined;
  let output = '';
  afterAll(async () => {
    if (dev && dev.exitCode === null) {
      dev.kill('SIGKILL');
      await dev;
    }
  });
  return {
    start(...args) {
      dev = execa('node', [join(project.dir, 'node_modules/opgen/bin/opgen.js'), 'dev', ...args], {
        cwd: project.dir,
        all: true,
        reject: false,
        env: { NO_COLOR: '1' },
        // The tests SIGTERM it and check its exit: execa's SIGKILL 5 s later would turn a slow
        // shutdown on a loaded machine into a kill, and a real hang shows as the test's timeout.
        forceKillAfterDelay: false,
      });
      dev.all.on('data', (chunk: Buffer) => (output += chunk.toString()));
    },
    get process() {
      if (!dev) throw new Error('opgen dev was not started');
      return dev;
    },
    get output() {
      return output;
    },
    async kubectl(...args) {
      const result = await execa('kubectl', ['--kubeconfig', join(project.dir, '.opgen/dev/kubeconfig'), ...args], { cwd: project.dir, reject: false, all: true });
      if (result.exitCode !== 0) throw new Error(`kubectl ${args.join(' ')}: ${result.all}`);
      return result.stdout;
    },
  };
}

/** A probe's verdict for `eventually`: true, or an error saying what is still missing. */
export function holds(condition: boolean, why: string): true {
  if (!condition) throw new Error(why);
  return true;
}
