import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onExit } from './exit-cleanup.js';
import type { ManagedProcess, Supervise } from './process.js';
import { startWatchdog } from './watchdog.js';

/**
 * What one control plane (or operator) owns: a temp dir and the processes started into
 * it. Whatever happens (stop(), a failed start, this process exiting, being signalled or
 * killed), the processes end and the dir goes.
 */
export interface Lifecycle {
  /** The temp dir, `<prefix>*` under the OS temp dir. */
  readonly dir: string;
  /** Registers a started process; it is forgotten again when it exits. */
  readonly supervise: Supervise;
  /** The processes still running, in start order. */
  running(): ManagedProcess[];
  /** Stops the processes called `name`. */
  stopProcesses(name: string): Promise<void>;
  /** Stops everything in `order` (names; others last), then removes the dir. Idempotent. */
  stop(order: string[]): Promise<void>;
}

export function createLifecycle(prefix = 'opgen-controlplane-'): Lifecycle {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const watchdog = startWatchdog(dir);
  const running = new Set<ManagedProcess>();
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  const unregisterExit = onExit(() => {
    for (const process of running) process.killNow();
    removeDir();
  });
  const stopProcesses = async (name: string): Promise<void> => {
    await Promise.all([...running].filter((p) => p.name === name).map((p) => p.stop()));
  };

  let stopping: Promise<void> | undefined;
  return {
    dir,
    supervise: (process) => {
      running.add(process);
      watchdog.track(process.pid);
      void process.exited.then(() => {
        running.delete(process);
        watchdog.untrack(process.pid);
      });
      return process;
    },
    running: () => [...running],
    stopProcesses,
    stop: (order) => {
      stopping ??= (async () => {
        for (const name of order) await stopProcesses(name);
        await Promise.all([...running].map((p) => p.stop()));
        watchdog.dismiss();
        removeDir();
        unregisterExit();
      })();
      return stopping;
    },
  };
}
