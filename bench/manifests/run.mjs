// bench/manifests: `opgen manifests` against controller-gen on the same synthetic API.
// Usage: node bench/manifests/run.mjs [--kinds 10,100] [--fields 30] [--runs 3] [--builtins] [--saves 20] [--cel]
// --builtins adds a pod template and resource requirements to every spec (Kubernetes types).
// --cel measures, in the same run, the API again with three CEL rules on every spec (opgen
// type-checks and costs them, controller-gen copies them): its ratio beside the anchor's.
// Also measures `opgen --help` against `controller-gen --help`, and a save under
// `opgen manifests --watch` at each size (controller-gen has no watch mode).
// --repos a,b measures the built CLI of each opgen checkout (e.g. main and a branch) in the same
// run, one after the other at each size, so that a before/after comparison sees the same load.
// Needs `npm run build` first (it runs the built CLI, as a user would) and Go for controller-gen.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeSyntheticApi } from './synthetic-api.mjs';
import { watchSaves } from './watch.mjs';

// k8s.io/api and k8s.io/apimachinery of the Kubernetes version opgen pins (controller-tools v0.21 builds on 0.36).
const kubernetesModulesVersion = 'v0.36.3';

const { values } = parseArgs({
  options: { kinds: { type: 'string', default: '10,100' }, fields: { type: 'string', default: '30' }, runs: { type: 'string', default: '3' }, builtins: { type: 'boolean', default: false }, saves: { type: 'string', default: '20' }, cel: { type: 'boolean', default: false }, repos: { type: 'string' } },
});
const repo = new URL('../../', import.meta.url).pathname;
const runs = Number(values.runs);
const repos = values.repos ? values.repos.split(',').map((dir) => join(resolve(dir), '/')) : [repo];
const name = (dir) => (repos.length > 1 ? ` ${dir.slice(-24)}` : '');

/** controller-gen of the version opgen's built-in data and conformance suite pin, built once into the shared cache. */
function controllerGen() {
  return execFileSync('bash', [join(repo, 'hack/controller-gen/build.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/** Wall time in seconds of one fresh process. */
function once(command, args, cwd, env = process.env) {
  const start = process.hrtime.bigint();
  execFileSync(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Median wall time in seconds of `runs` fresh processes. */
function time(command, args, cwd, env) {
  return median(Array.from({ length: runs }, () => once(command, args, cwd, env)));
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const gen = controllerGen();
const genVersion = execFileSync(gen, ['--version'], { encoding: 'utf8' }).trim().replace(/^Version: /, '');
console.log(`controller-gen ${genVersion}, opgen from ${repos.join(' and ')}, ${values.fields} fields per kind${values.builtins ? ' + pod template + resources' : ''}, median of ${runs} runs, load average ${loadavg()[0].toFixed(2)}`);
// opgen keeps V8's compiled TypeScript between runs (src/compile-cache.ts): the first run after
// an install fills that cache, later runs read it. Both are fresh processes, as in CI.
const helpRuns = 20;
const help = (command, args) => median(Array.from({ length: helpRuns }, () => once(command, args, repo)));
const nodeHelp = help('node', ['-e', '0']);
const opgenHelps = repos.map((dir) => help('node', [join(dir, 'bin/opgen.js'), '--help']));
const cgHelp = help(gen, ['--help']);
const nodeHelpAfter = help('node', ['-e', '0']);
for (const [i, dir] of repos.entries()) {
  console.log(`--help, median of ${helpRuns}:${name(dir)} opgen ${(opgenHelps[i] * 1000).toFixed(0)} ms, controller-gen ${(cgHelp * 1000).toFixed(0)} ms, node -e 0 ${(nodeHelp * 1000).toFixed(0)} / ${(nodeHelpAfter * 1000).toFixed(0)} ms (before / after), opgen ${(opgenHelps[i] / ((nodeHelp + nodeHelpAfter) / 2)).toFixed(2)}× node`);
}
// With --cel, `100+cel` is the API with three rules per spec, measured right after its anchor `100`.
console.log('    kinds  opgen first run(s)  opgen(s)  controller-gen(s)  ratio  --watch save(ms, wall/reported)');
for (const kinds of values.kinds.split(',').map(Number)) {
  for (const cel of values.cel ? [false, true] : [false]) {
    const root = mkdtempSync(join(tmpdir(), 'opgen-bench-manifests-'));
    try {
      const tsDir = join(root, 'ts');
      const goDir = join(root, 'go');
      writeSyntheticApi({ kinds, fields: Number(values.fields), tsDir, goDir, builtins: values.builtins, cel });
      writeFileSync(join(goDir, 'go.mod'), `module bench.example.com/api\n\ngo 1.24\n\nrequire (\n\tk8s.io/api ${kubernetesModulesVersion}\n\tk8s.io/apimachinery ${kubernetesModulesVersion}\n)\n`);
      execFileSync('go', ['mod', 'tidy'], { cwd: goDir, stdio: ['ignore', 'ignore', 'inherit'] });

      const cg = time(gen, ['crd', 'paths=./api/...', 'output:crd:artifacts:config=config/crd/bases'], goDir);
      for (const [i, dir] of repos.entries()) {
        const env = { ...process.env, OPGEN_CACHE_DIR: join(root, `cache-${i}`) };
        const opgenArgs = [join(dir, 'bin/opgen.js'), 'manifests'];
        const first = once('node', opgenArgs, tsDir, env);
        const opgen = time('node', opgenArgs, tsDir, env);
        const kind = 'Widget000';
        const saved = await watchSaves({ bin: join(dir, 'bin/opgen.js'), tsDir, file: `src/api/v1/${kind.toLowerCase()}_types.ts`, kind, saves: Number(values.saves), env });
        const label = `${kinds}${cel ? '+cel' : ''}`;
        console.log(
          `${label.padStart(9)}  ${first.toFixed(2).padStart(18)}  ${opgen.toFixed(2).padStart(8)}  ${cg.toFixed(2).padStart(17)}  ${(opgen / cg).toFixed(2).padStart(5)}  ${saved.wall.toFixed(0).padStart(5)} / ${saved.reported}${name(dir)}  load ${loadavg()[0].toFixed(2)}`,
        );
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}
