// One cold start, in a fresh process, as a test file pays it: the time to the first answer
// (loadMs) and the RSS then; then the rest of a 10-test file's semantics work: create the
// fixture CRD, load it, validate 10 objects (fileMs, from the start).
// Usage: node bench/semantics/load-probe.mjs wasm|native|ts ARTEFACT  (prints one JSON line)
import { readFileSync } from 'node:fs';

const start = performance.now();
const [kind, artefact] = process.argv.slice(2);
const empty = { metadata: { name: 'x' }, spec: { versions: [] } };
const { fixtureCases, fixtureCrd } = await import('./fixtures.mjs');
const cases = fixtureCases([]).slice(0, 10);
let loadMs;
let rssMB;
let helperRssMB = 0;
const loaded = () => {
  loadMs = performance.now() - start;
  rssMB = process.memoryUsage().rss / 2 ** 20;
};
if (kind === 'ts') {
  const { admitCrd, decodeCustomObject, validateCustomObject } = await import('../../runtime/dist/internal/semantics/index.js');
  admitCrd(empty);
  loaded();
  admitCrd(fixtureCrd);
  for (const { object } of cases) {
    try {
      validateCustomObject({ crd: fixtureCrd, version: 'v1', object: decodeCustomObject({ crd: fixtureCrd, version: 'v1', object }).object });
    } catch {
      // The memory cluster's (?i) failure: timed all the same.
    }
  }
} else {
  const { wasmClient, nativeClient } = await import('./clients.mjs');
  const client = kind === 'wasm' ? await wasmClient(artefact) : await nativeClient(artefact);
  await client.call({ op: 'validateCRD', crd: empty });
  loaded();
  if (client.pid) helperRssMB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${client.pid}/status`, 'utf8'))[1]) / 1024;
  await client.call({ op: 'validateCRD', crd: fixtureCrd });
  const { id } = await client.call({ op: 'loadCRD', crd: fixtureCrd });
  for (const { object } of cases) await client.call({ op: 'validateObject', id, version: 'v1', object });
  client.close();
}
console.log(JSON.stringify({ loadMs, fileMs: performance.now() - start, rssMB, helperRssMB }));
