/**
 * Synchronous cleanups that run when this process exits or is told to stop by a signal,
 * so a test run that ends without calling stop() leaves no control plane behind.
 */
const cleanups = new Set<() => void>();
let installed = false;

const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Registers `cleanup` (synchronous, must not throw) and returns its unregister function. */
export function onExit(cleanup: () => void): () => void {
  install();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function runAll(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // Exiting: one failed cleanup must not stop the others.
    }
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  for (const signal of signals) {
    process.once(signal, () => {
      runAll();
      // Listening to a signal cancels Node's default of exiting; restore it unless the
      // host program handles the signal itself.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}
