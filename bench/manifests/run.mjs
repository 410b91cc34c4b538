// bench/manifests: `opgen manifests` against controller-gen on the same synthetic API.
// Usage: node bench/manifests/run.mjs [--kinds 10,100] [--fields 30] [--runs 3]
// Needs `npm run build` first (it runs the built CLI, as a user would) and Go for controller-gen.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeSyntheticApi } from './synthetic-api.mjs';

const controllerToolsVersion = 'v0.21.0';
// The apimachinery of the Kubernetes version opgen pins (controller-tools v0.21 builds on 0.36).
const apimachineryVersion = 'v0.36.3';

const { values } = parseArgs({
  options: { kinds: { type: 'string', default: '10,100' }, fields: { type: 'string', default: '30' }, runs: { type: 'string', default: '3' } },
});
const repo = new URL('../../', import.meta.url).pathname;
const runs = Number(values.runs);

function controllerGen() {
  const bin = join(process.env.OPGEN_CACHE_DIR ?? join(homedir(), '.cache/opgen'), 'bench', controllerToolsVersion);
  execFileSync('go', ['install', `sigs.k8s.io/controller-tools/cmd/controller-gen@${controllerToolsVersion}`], {
    env: { ...process.env, GOBIN: bin, GOFLAGS: '-mod=mod' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return join(bin, 'controller-gen');
}

/** Median wall time in seconds of `runs` fresh processes. */
function time(command, args, cwd) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    samples.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const gen = controllerGen();
console.log(`controller-gen ${controllerToolsVersion}, opgen from ${repo}, ${values.fields} fields per kind, median of ${runs} runs`);
console.log('kinds  opgen(s)  controller-gen(s)  ratio');
for (const kinds of values.kinds.split(',').map(Number)) {
  const root = mkdtempSync(join(tmpdir(), 'opgen-bench-manifests-'));
  try {
    const tsDir = join(root, 'ts');
    const goDir = join(root, 'go');
    writeSyntheticApi({ kinds, fields: Number(values.fields), tsDir, goDir });
    writeFileSync(join(goDir, 'go.mod'), `module bench.example.com/api\n\ngo 1.24\n\nrequire k8s.io/apimachinery ${apimachineryVersion}\n`);
    execFileSync('go', ['mod', 'tidy'], { cwd: goDir, stdio: ['ignore', 'ignore', 'inherit'] });

    const opgen = time('node', [join(repo, 'bin/opgen.js'), 'manifests'], tsDir);
    const cg = time(gen, ['crd', 'paths=./api/...', 'output:crd:artifacts:config=config/crd/bases'], goDir);
    console.log(`${String(kinds).padStart(5)}  ${opgen.toFixed(2).padStart(8)}  ${cg.toFixed(2).padStart(17)}  ${(opgen / cg).toFixed(2).padStart(5)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
