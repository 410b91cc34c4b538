const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Calls `first` on the first SIGTERM or SIGINT and `again` on any later one, like
 * controller-runtime's signal handler (a second signal means "stop now"). Returns a
 * function that removes the handlers.
 */
export function onShutdownSignals(first: (signal: NodeJS.Signals) => void, again: (signal: NodeJS.Signals) => void): () => void {
  let seen = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (seen) {
      again(signal);
      return;
    }
    seen = true;
    first(signal);
  };
  for (const s of SIGNALS) process.on(s, handler);
  return () => {
    for (const s of SIGNALS) process.off(s, handler);
  };
}
