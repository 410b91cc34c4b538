/** Resolves once `signal` aborts: how a provider that works through event handlers runs. */
export function untilStopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}
