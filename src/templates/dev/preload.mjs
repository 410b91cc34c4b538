// opgen dev's spare operator process, copied to .opgen/dev/ so that the project's own packages
// resolve: it loads what every operator loads, then waits for one line on stdin naming the
// compiled entry point, makes it argv[1] (the manager reads its flags from argv[2] on) and
// imports it. Each finished reconcile goes to opgen dev over the IPC channel it opened.
import { pathToFileURL } from 'node:url';

process.stdin.setEncoding('utf8');
let buffer = '';
let entry;
// opgen dev went away (even by SIGKILL): its operator stops as if Ctrl-C had reached it.
process.stdin.on('end', () => (entry ? process.kill(process.pid, 'SIGTERM') : process.exit(0)));
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  const end = buffer.indexOf('\n');
  if (entry !== undefined || end < 0) return;
  entry = buffer.slice(0, end);
  process.stdin.unref();
  process.argv = [process.argv[0], entry, ...process.argv.slice(2)];
  import(pathToFileURL(entry).href);
});
// The channel must not keep an operator alive that ended its work (stdin decides that).
process.channel?.unref();
await import('@opgen/runtime');
// A runtime older than reconcile records has no observe export: the operator runs, unrecorded.
const observe = await import('@opgen/runtime/observe').catch(() => undefined);
observe?.onReconcile((record) => process.connected && process.send({ reconcile: record }));
await import('@kubernetes/client-node').catch(() => undefined);
