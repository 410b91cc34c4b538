// Regenerates the seed examples from the opgen commands in their READMEs, keeping the files a
// user writes by hand (types, controllers, samples, tests, README). Needs `npm run build`.
//
//   node scripts/regenerate-examples.mjs [name…]           rewrite the generated files
//   node scripts/regenerate-examples.mjs --check [name…]   exit 1 naming each file that differs
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = fileURLToPath(new URL('../', import.meta.url));
const examplesDir = join(repo, 'examples');
// Installs and compiled output are not sources; the Helm chart `opgen edit` writes to dist/chart is.
const skipped = (file) => /(^|\/)node_modules(\/|$)/.test(file) || file === 'package-lock.json' || /^dist\/(?!chart\/)/.test(file);
// Sample CRs are written once, then the user's to edit, as in kubebuilder; so are webhook handlers
// (src/webhooks/setup.ts is create webhook's, from PROJECT).
const handWritten = [/^src\/api\/.*_types\.ts$/, /^src\/controllers\//, /^src\/webhooks\/(?!setup\.ts$)/, /^config\/samples\/(?!kustomization\.yaml$)/, /^test\//, /^README\.md$/];
const isHandWritten = (file) => handWritten.some((re) => re.test(file));

/**
 * The `opgen …` lines between the README's `<!-- opgen:commands -->` markers, and the
 * `npm pkg set …` lines that record a library the hand-written code needs in package.json
 * (offline and deterministic, unlike `npm install`).
 */
function commandsOf(readme) {
  const block = /<!-- opgen:commands -->([\s\S]*?)<!-- \/opgen:commands -->/.exec(readme)?.[1] ?? '';
  return block.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('opgen ') || line.startsWith('npm pkg set '));
}

function files(root, dir = root) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    const file = relative(root, path);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(root, path);
    return skipped(file) ? [] : [file];
  });
}

/** Runs the example's commands in `scratch/<name>` with this checkout's CLI as `opgen`. */
function regenerate(name, scratch) {
  const example = join(examplesDir, name);
  const commands = commandsOf(readFileSync(join(example, 'README.md'), 'utf8'));
  if (commands.length < 2) throw new Error(`examples/${name}/README.md lists no opgen commands between <!-- opgen:commands --> markers`);
  const bin = join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'opgen'), `#!/bin/sh\nexec node "${join(repo, 'bin/opgen.js')}" "$@"\n`);
  chmodSync(join(bin, 'opgen'), 0o755);
  // Same folder name as the example: `init` takes the project name from it by default.
  const out = join(scratch, name);
  mkdirSync(out);
  // The charts chart-backed examples are made from (create api --helm-chart ../charts/<chart>).
  const charts = join(examplesDir, 'charts');
  if (existsSync(charts) && !existsSync(join(scratch, 'charts'))) cpSync(charts, join(scratch, 'charts'), { recursive: true });
  // create api --helm-chart renders the chart with helm: the one the tests build, unless HELM names one.
  const helm = commands.some((c) => c.includes('--helm-chart')) && !process.env.HELM
    ? { HELM: execFileSync('bash', [join(repo, 'hack/helm/build.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim() }
    : {};
  const run = (script) =>
    execFileSync('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: out,
      env: { ...process.env, ...helm, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  run(commands.join('\n'));
  for (const file of files(example).filter(isHandWritten)) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    cpSync(join(example, file), join(out, file));
  }
  // A chart-backed project has no types for manifests to read: create api wrote its CRDs and RBAC.
  if (!readFileSync(join(out, 'PROJECT'), 'utf8').includes('helm-operator.opgen.dev/')) run('opgen manifests');
  // The chart holds the CRDs and RBAC of the hand-written types, not of create api's placeholders.
  if (commands.includes('opgen edit --plugins helm')) run('opgen edit --plugins helm');
  return out;
}

/** The files whose bytes differ between the example and its regeneration, or exist in one only. */
function differences(example, regenerated) {
  const mine = new Set(files(example));
  const theirs = new Set(files(regenerated));
  const all = [...new Set([...mine, ...theirs])].sort();
  return all.flatMap((file) => {
    if (!mine.has(file)) return [`missing: ${file}`];
    if (!theirs.has(file)) return [`not generated: ${file}`];
    const same = readFileSync(join(example, file)).equals(readFileSync(join(regenerated, file)));
    return same ? [] : [`differs: ${file}`];
  });
}

function rewrite(example, regenerated) {
  for (const file of files(example).filter((f) => !isHandWritten(f))) rmSync(join(example, file));
  for (const file of files(regenerated).filter((f) => !isHandWritten(f))) {
    mkdirSync(dirname(join(example, file)), { recursive: true });
    cpSync(join(regenerated, file), join(example, file));
  }
}

const { values, positionals } = parseArgs({ options: { check: { type: 'boolean', default: false } }, allowPositionals: true });
const names = positionals.length > 0 ? positionals : readdirSync(examplesDir).filter((n) => existsSync(join(examplesDir, n, 'README.md')));
const scratch = mkdtempSync(join(tmpdir(), 'opgen-regenerate-'));
let stale = 0;
try {
  for (const name of names) {
    const regenerated = regenerate(name, scratch);
    const diff = differences(join(examplesDir, name), regenerated);
    if (values.check) {
      stale += diff.length;
      console.log(diff.length === 0 ? `${name}: up to date` : `${name}:\n${diff.map((d) => `  ${d}`).join('\n')}`);
    } else {
      rewrite(join(examplesDir, name), regenerated);
      console.log(`${name}: ${diff.length === 0 ? 'up to date' : `rewrote ${diff.length} file(s)`}`);
    }
  }
} catch (error) {
  console.error(`error: ${error.stderr?.toString().trim() || error.message}`);
  process.exitCode = 2;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (stale > 0) process.exitCode = 1;
