import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll } from 'vitest';
import { opgenOk } from './run.js';

/** The opgen repository, whose CLI and runtime are packed. */
export const repo = fileURLToPath(new URL('../../', import.meta.url));

/** A scratch project made from the opgen and runtime packages as npm would publish them. */
export interface PackedProject {
  /** The project's folder (valid once the suite's beforeAll has run). */
  readonly dir: string;
  /** Packs both packages and runs `opgen init --domain <domain> <flags>` against them. */
  init(domain: string, ...flags: string[]): Promise<void>;
  /** Runs `opgen <args>` in the project; it must succeed without a word on stderr. */
  run(...args: string[]): Promise<void>;
  /** Runs a command in the project; never throws, `all` holds its interleaved output. */
  inProject(command: string, args: readonly string[]): ReturnType<typeof runIn>;
}

function runIn(cwd: string, command: string, args: readonly string[]) {
  return execa(command, args, { cwd, all: true, reject: false, env: { NO_COLOR: '1' } });
}

/**
 * Registers the hooks of a suite that scaffolds `name` in a scratch folder and removes it
 * afterwards. Needs `npm run build` first: the packages are packed from dist/.
 */
export function packedProject(name: string): PackedProject {
  let work = '';
  beforeAll(async () => {
    for (const built of ['dist/opgen/cli.cjs', 'runtime/dist/index.js']) {
      if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: run npm run build first`);
    }
    work = await mkdtemp(join(tmpdir(), `opgen-${name}-`));
    await mkdir(join(work, name));
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** `npm pack`s the package in `packageDir` into the work folder; returns the tarball's path. */
  async function pack(packageDir: string): Promise<string> {
    const { stdout } = await execa('npm', ['pack', '--json', '--pack-destination', work], { cwd: packageDir });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    return join(work, packed!.filename);
  }

  const project: PackedProject = {
    get dir() {
      return join(work, name);
    },
    async init(domain, ...flags) {
      const runtime = await pack(join(repo, 'runtime'));
      const cli = await pack(repo);
      await project.run('init', '--domain', domain, '--runtime', `file:${runtime}`, '--cli', `file:${cli}`, ...flags);
    },
    async run(...args) {
      await opgenOk(project.dir, ...args);
    },
    inProject: (command, args) => runIn(project.dir, command, args),
  };
  return project;
}
