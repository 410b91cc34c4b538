// One cold start, in a fresh process: how long until the first answer, and the RSS then.
// Usage: node bench/semantics/load-probe.mjs wasm|native|ts ARTEFACT_DIR  (prints one JSON line)
import { readFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';

const start = performance.now();
const [kind, dir] = process.argv.slice(2);
const crd = { metadata: { name: 'x' }, spec: { versions: [] } };
let helperRssMB = 0;
if (kind === 'ts') {
  const { admitCrd } = await import('../../runtime/dist/testing/memory/schema/index.js');
  admitCrd(crd);
} else {
  const { wasmClient, nativeClient } = await import('./clients.mjs');
  const client = kind === 'wasm' ? await wasmClient(join(dir, 'semantics.wasm')) : await nativeClient(join(dir, `semantics-${platform()}-${arch() === 'x64' ? 'amd64' : arch()}`));
  await client.call({ op: 'validateCRD', crd });
  if (client.pid) helperRssMB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${client.pid}/status`, 'utf8'))[1]) / 1024;
  client.close();
}
const loadMs = performance.now() - start;
console.log(JSON.stringify({ loadMs, rssMB: process.memoryUsage().rss / 2 ** 20, helperRssMB }));
