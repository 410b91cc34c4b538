// A freshly scaffolded project for the benches that time what a user waits for in one: the
// opgen CLI and @opgen/runtime of `repo` are `npm pack`ed (without rebuilding: `npm run build`
// came first) and given to `opgen init --runtime/--cli`, which runs `npm install`.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Scaffolds `<work>/<name>` with one API (`create api --group <group> --version v1 --kind <kind>`); returns its folder. */
export function scaffoldProject(repo, work, { name, group, kind }) {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  const pack = (dir) => join(work, JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: dir, encoding: 'utf8', env }))[0].filename);
  const runtime = pack(join(repo, 'runtime'));
  const cli = pack(repo);
  const dir = join(work, name);
  mkdirSync(dir);
  const opgen = (...args) => execFileSync('node', [join(repo, 'bin/opgen.js'), ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], env });
  opgen('init', '--domain', 'example.com', '--runtime', `file:${runtime}`, '--cli', `file:${cli}`);
  opgen('create', 'api', '--group', group, '--version', 'v1', '--kind', kind);
  return dir;
}
