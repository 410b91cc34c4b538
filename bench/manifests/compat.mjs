// bench/manifests/compat.mjs: what `opgen manifests --check` adds to compare the API with the
// last release, on the synthetic API (target: at most 100 ms at 100 kinds).
// Usage: node bench/manifests/compat.mjs [--kinds 10,100] [--fields 30] [--runs 20]
// Needs `npm run build` first (it imports the compiled modules from dist/).
// Measured in one process, after the CRDs are generated: reading the released CRDs (from a
// directory, and from a git tag through `git cat-file --batch`) and classifying every change,
// against a release identical to the API (nothing changed: files byte-identical to what opgen
// writes are not parsed), one where one kind, and one where every kind, lost a field and
// tightened a bound (two breaking changes per changed kind, each located). A changed file is
// parsed once per content and then read back from opgen's cache (src/compat/parsed-cache.ts):
// the first check after a release ("first") pays the YAML parse, the next ones do not.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeSyntheticApi } from './synthetic-api.mjs';

const { values } = parseArgs({ options: { kinds: { type: 'string', default: '10,100' }, fields: { type: 'string', default: '30' }, runs: { type: 'string', default: '20' } } });
const repo = new URL('../../', import.meta.url).pathname;
const dist = (path) => import(join(repo, 'dist', path));
const { loadProject } = await dist('project/load.js');
const { readSources } = await dist('project/sources.js');
const { generateManifests } = await dist('generators/manifests.js');
const { loadReleasedApi } = await dist('compat/base.js');
const { checkCompatibility } = await dist('compat/check.js');

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function onceMs(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function timeMs(fn) {
  fn(); // warm up: the first run compiles the code
  return median(Array.from({ length: Number(values.runs) }, () => {
    const start = process.hrtime.bigint();
    fn();
    return Number(process.hrtime.bigint() - start) / 1e6;
  }));
}

console.log(`${values.fields} fields per kind, median of ${values.runs} runs, load average ${loadavg()[0].toFixed(2)}`);
console.log('kinds  dir, unchanged(ms)  dir, 1 kind changed(ms)  dir, every kind changed: first / then(ms)  git tag, unchanged(ms)  (target ≤ 100 ms at 100 kinds)');
for (const kinds of values.kinds.split(',').map(Number)) {
  const root = mkdtempSync(join(tmpdir(), 'opgen-bench-compat-'));
  try {
    const tsDir = join(root, 'ts');
    process.env.OPGEN_CACHE_DIR = join(root, 'cache');
    writeSyntheticApi({ kinds, fields: Number(values.fields), tsDir, goDir: join(root, 'go') });
    execFileSync('node', [join(repo, 'bin/opgen.js'), 'manifests'], { cwd: tsDir, stdio: 'ignore', env: { ...process.env, OPGEN_CACHE_DIR: join(root, 'cache') } });
    const project = await loadProject(tsDir, 'bench');
    const sources = await readSources(tsDir);
    const { crds, locations, files } = generateManifests(tsDir, { project, sources, existingSamples: new Set() });
    const crdDir = 'config/crd/bases/';
    const generated = new Map(files.filter((f) => f.path.startsWith(crdDir)).map((f) => [f.path.slice(crdDir.length), f.content]));

    const same = join(root, 'same');
    cpSync(join(tsDir, 'config/crd/bases'), same, { recursive: true });
    // A release with one more field and a looser bound in every kind: the API removed and tightened them.
    const changed = join(root, 'changed');
    cpSync(same, changed, { recursive: true });
    const one = join(root, 'one');
    cpSync(same, one, { recursive: true });
    for (const [dir, names] of [[changed, readdirSync(changed)], [one, readdirSync(one).slice(0, 1)]]) for (const name of names) {
      const path = join(dir, name);
      const text = readFileSync(path, 'utf8');
      const edited = text.replace(/^( {16})field0:\n/m, '$1dropped:\n$1  type: string\n$1field0:\n').replace(/minLength: 1/, 'minLength: 0');
      if (edited === text) throw new Error(`${name}: the synthetic CRD changed shape; update the bench`);
      writeFileSync(path, edited);
    }
    const run = (base, expected) => () => {
      const released = loadReleasedApi(tsDir, base, generated);
      const { errors } = checkCompatibility(released, crds, locations);
      if (errors.length !== expected) throw new Error(`expected ${expected} breaking changes, got ${errors.length}: ${errors[0]?.message}`);
    };
    const git = (...args) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...args], { cwd: tsDir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'release');
    git('tag', 'v1.0.0');
    const dirSame = timeMs(run(same, 0));
    const dirOne = timeMs(run(one, 2));
    const dirChangedFirst = onceMs(run(changed, 2 * kinds));
    const dirChanged = timeMs(run(changed, 2 * kinds));
    const tag = timeMs(run(undefined, 0));
    console.log(`${String(kinds).padStart(5)}  ${dirSame.toFixed(1).padStart(17)}  ${dirOne.toFixed(1).padStart(23)}  ${`${dirChangedFirst.toFixed(1)} / ${dirChanged.toFixed(1)}`.padStart(40)}  ${tag.toFixed(1).padStart(22)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
