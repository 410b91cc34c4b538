// bench/testing/project.mjs: what a user waits for on a freshly scaffolded project's `npm test`
// (the starter controller test on the memory tier). The opgen CLI and @opgen/runtime are
// installed as a user gets them: `npm pack`ed and given to `opgen init --runtime/--cli`, which
// runs `npm install`. Prints, for each run, the wall time of `npm test` and vitest's own phases
// (import, transform, tests), and the wall time of `opgen manifests` and `vitest run` apart.
// The first run is the first `npm test` after the install (no compile cache, no vitest cache).
//
// With --repos a,b (built opgen checkouts, e.g. main and a branch), each gets its own project
// and the runs alternate between them, so that a before/after comparison sees the same load.
// Usage: node bench/testing/project.mjs [--repos <dir>,<dir>] [--runs 5]
// Needs `npm run build` in each repo (the packages are packed from dist/) and the npm registry.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { scaffoldProject } from '../scaffold-project.mjs';

const { values } = parseArgs({ options: { repos: { type: 'string' }, runs: { type: 'string', default: '5' } } });
const here = new URL('../../', import.meta.url).pathname;
const repos = (values.repos ?? here).split(',').map((repo) => resolve(repo));
const runs = Number(values.runs);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

/** Wall seconds and output of one command in `dir`; throws when it fails. */
function timed(dir, command, args) {
  const start = process.hrtime.bigint();
  const output = execFileSync(command, args, { cwd: dir, encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
  return { wall: Number(process.hrtime.bigint() - start) / 1e9, output };
}

/** vitest's summary line: `Duration 1.2s (transform 80ms, setup 0ms, import 900ms, tests 60ms, environment 0ms)`. */
function phases(output) {
  const line = output.split('\n').find((l) => /^\s*Duration\s/.test(l));
  if (!line) throw new Error(`no vitest summary in:\n${output}`);
  const ms = (name) => {
    const match = line.match(new RegExp(`${name}\\s+([\\d.]+)(ms|s)`));
    return match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : NaN;
  };
  return { duration: ms('Duration'), transform: ms('transform'), import: ms('import'), tests: ms('tests') };
}

const work = mkdtempSync(join(tmpdir(), 'opgen-bench-project-'));
try {
  const projects = repos.map((repo, i) => {
    const dir = join(work, String(i));
    mkdirSync(dir);
    return { repo, dir: scaffoldProject(repo, dir, { name: 'gadget-operator', group: 'toys', kind: 'Gadget' }) };
  });
  console.log(`bench/testing/project: the scaffold's starter test (memory tier), ${runs} runs each, alternating; load average ${load()}`);
  console.log('run   repo                           npm test(s)  vitest: duration  import  transform  tests(ms)  |  opgen manifests(s)  vitest run(s)  load');
  const results = projects.map(() => []);
  for (let run = 0; run < runs; run++) {
    projects.forEach((project, i) => {
      const test = timed(project.dir, 'npm', ['test']);
      const p = phases(test.output);
      const manifests = timed(project.dir, 'node', ['node_modules/opgen/bin/opgen.js', 'manifests']);
      const vitest = timed(project.dir, 'node', ['node_modules/vitest/vitest.mjs', 'run']);
      results[i].push(test.wall);
      const label = run === 0 ? 'first' : String(run + 1);
      console.log(
        `${label.padEnd(6)}${project.repo.slice(-30).padEnd(31)}${test.wall.toFixed(2).padStart(11)}  ${p.duration.toFixed(0).padStart(16)}  ${p.import.toFixed(0).padStart(6)}  ${p.transform.toFixed(0).padStart(9)}  ${p.tests.toFixed(0).padStart(9)}  |  ${manifests.wall.toFixed(2).padStart(18)}  ${vitest.wall.toFixed(2).padStart(13)}  ${loadavg()[0].toFixed(2)}`,
      );
    });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  projects.forEach((project, i) => console.log(`${project.repo}: first npm test ${results[i][0].toFixed(2)} s, median ${median(results[i]).toFixed(2)} s (goal ≤ 2 s at load < 1)`));
  console.log(`load average after: ${load()}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
