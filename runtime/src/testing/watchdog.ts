import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * A tiny shell process that outlives us only to clean up: it reads process group ids on
 * its stdin and, when stdin reaches end-of-file because this process died without
 * stopping the control plane (SIGKILL, a crashed test worker), kills those groups and
 * removes the control plane's temp dir. Exit handlers cannot cover SIGKILL; this does.
 */
export interface Watchdog {
  /** Watch the process group led by `pid`. */
  track(pid: number): void;
  /** Forget `pid` once it has been stopped, so a recycled pid is never killed. */
  untrack(pid: number): void;
  /** Ends the watchdog without it doing anything: the caller cleaned up itself. */
  dismiss(): void;
}

const script = `
dir=$1
pids=
while read -r op pid; do
  case $op in
    +) pids="$pids $pid" ;;
    -) keep=; for p in $pids; do [ "$p" = "$pid" ] || keep="$keep $p"; done; pids=$keep ;;
  esac
done
for p in $pids; do kill -s KILL -- "-$p" 2>/dev/null; done
for i in 1 2 3 4 5 6 7 8 9 10; do
  alive=
  for p in $pids; do kill -s 0 -- "-$p" 2>/dev/null && alive=1; done
  [ -z "$alive" ] && break
  sleep 0.5
done
rm -rf -- "$dir"
`;

/** Starts a watchdog that removes `dir` and kills the tracked groups if we die first. */
export function startWatchdog(dir: string): Watchdog {
  // Detached: a new session, so a Ctrl-C aimed at the test run cannot kill it first.
  const child = spawn('/bin/sh', ['-c', script, 'opgen-controlplane-watchdog', dir], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const stdin = child.stdin as Socket;
  // A watchdog that failed to start or already ended must not crash the test process.
  child.on('error', () => undefined);
  stdin.on('error', () => undefined);
  child.unref();
  stdin.unref();
  return {
    track: (pid) => void stdin.write(`+ ${pid}\n`),
    untrack: (pid) => void stdin.write(`- ${pid}\n`),
    dismiss: () => {
      child.kill('SIGKILL');
      stdin.destroy();
    },
  };
}
