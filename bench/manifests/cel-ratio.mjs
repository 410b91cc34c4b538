// bench/manifests/cel-ratio.mjs: opgen's ratio to controller-gen with CEL rules (three per spec,
// type-checked and costed by opgen, copied by controller-gen) beside the same ratio without
// them (the anchor), measured in one run with the two APIs' runs interleaved, so load that
// comes and goes on a shared machine falls on both alike. Reports wall time and CPU time
// (user + system, from /usr/bin/time): on a loaded machine CPU time is the steadier of the two.
// Usage: node bench/manifests/cel-ratio.mjs [--kinds 100] [--runs 7]. Needs `npm run build` and Go.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeSyntheticApi } from './synthetic-api.mjs';

const { values } = parseArgs({ options: { kinds: { type: 'string', default: '100' }, runs: { type: 'string', default: '7' } } });
const repo = new URL('../../', import.meta.url).pathname;
const gen = execFileSync('bash', [join(repo, 'hack/controller-gen/build.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
const kinds = Number(values.kinds);

/** Wall and CPU seconds of one fresh process. */
function measure(command, args, cwd, env = process.env) {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %U %S', command, ...args], { cwd, env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} failed:\n${run.stderr}`);
  const [wall, user, system] = run.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + system };
}

function median(samples, key) {
  const sorted = samples.map((s) => s[key]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const roots = [];
try {
  const variants = [false, true].map((cel) => {
    const root = mkdtempSync(join(tmpdir(), 'opgen-bench-cel-ratio-'));
    roots.push(root);
    writeSyntheticApi({ kinds, fields: 30, tsDir: join(root, 'ts'), goDir: join(root, 'go'), cel });
    writeFileSync(join(root, 'go/go.mod'), 'module bench.example.com/api\n\ngo 1.24\n\nrequire (\n\tk8s.io/api v0.36.3\n\tk8s.io/apimachinery v0.36.3\n)\n');
    execFileSync('go', ['mod', 'tidy'], { cwd: join(root, 'go'), stdio: ['ignore', 'ignore', 'inherit'] });
    const env = { ...process.env, OPGEN_CACHE_DIR: join(root, 'cache') };
    const opgen = () => measure('node', [join(repo, 'bin/opgen.js'), 'manifests'], join(root, 'ts'), env);
    const cg = () => measure(gen, ['crd', 'paths=./api/...', 'output:crd:artifacts:config=config/crd/bases'], join(root, 'go'));
    opgen(); // fills the compile cache, as any run after the first finds it
    return { name: cel ? 'with rules' : 'anchor', opgen, cg, samples: { opgen: [], cg: [] } };
  });
  for (let i = 0; i < Number(values.runs); i++) {
    for (const v of variants) {
      v.samples.opgen.push(v.opgen());
      v.samples.cg.push(v.cg());
    }
  }
  console.log(`${kinds} kinds, 30 fields, median of ${values.runs} interleaved runs, load average ${loadavg()[0].toFixed(2)}`);
  console.log('variant      opgen wall/cpu(s)  controller-gen wall/cpu(s)  ratio wall  ratio cpu');
  for (const v of variants) {
    const [ow, oc, cw, cc] = [median(v.samples.opgen, 'wall'), median(v.samples.opgen, 'cpu'), median(v.samples.cg, 'wall'), median(v.samples.cg, 'cpu')];
    console.log(`${v.name.padEnd(11)}  ${`${ow.toFixed(2)} / ${oc.toFixed(2)}`.padStart(17)}  ${`${cw.toFixed(2)} / ${cc.toFixed(2)}`.padStart(26)}  ${(ow / cw).toFixed(2).padStart(10)}  ${(oc / cc).toFixed(2).padStart(9)}`);
  }
} finally {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
}
