import { setTimeout as sleep } from 'node:timers/promises';
import { describeExit, logTail, type ManagedProcess } from './process.js';

/**
 * Polls `probe` until it resolves; a probe that throws means "not yet" and its message
 * says why. Fails fast, with the last lines of the process's log, when the process exits
 * or `deadline` (epoch ms) passes.
 */
export async function waitUntilReady<T>(
  process: ManagedProcess,
  what: string,
  deadline: number,
  probe: () => Promise<T>,
): Promise<T> {
  let lastProblem: string;
  for (;;) {
    const exit = process.exit();
    if (exit) throw startError(process, `${process.name} exited (${describeExit(exit)}) while waiting for ${what}`);
    try {
      return await probe();
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    if (Date.now() >= deadline) {
      throw startError(process, `${process.name} was not ready in time: timed out waiting for ${what} (last: ${lastProblem})`);
    }
    await Promise.race([sleep(100), process.exited]);
  }
}

/** An error about a process that carries the tail of its log. */
function startError(process: ManagedProcess, message: string): Error {
  return new Error(`${message}\n--- last lines of ${process.name}'s log ---\n${logTail(process.logFile)}`);
}
