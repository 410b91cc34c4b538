import { cp, mkdir, readdir, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { execa } from 'execa';

// There is no Docker engine here. This runs a Dockerfile's stages the way `docker build`
// would, each in a directory standing for the stage's root filesystem, with the host's
// Node.js in place of the base image's: the same COPY, RUN, ENV, WORKDIR, USER and
// ENTRYPOINT, so the commands the image build runs are the ones tested. Instructions it
// does not know fail the build, so the test keeps up with the Dockerfile.

/** One instruction: its keyword, flags (`--from=x`) and arguments, and its line. */
export interface Instruction {
  keyword: string;
  flags: Record<string, string>;
  args: string;
  line: number;
}

/** A `FROM` and the instructions up to the next one. */
export interface Stage {
  base: string;
  name: string | undefined;
  instructions: Instruction[];
}

const known = new Set(['ARG', 'FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'USER', 'ENTRYPOINT', 'CMD']);

/** The stages of a Dockerfile, with global ARGs substituted into each FROM. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const globalArgs = new Map<string, string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i + 1;
    let line = lines[i]!;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]!.trim()}`;
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const match = /^(\S+)\s+(.*)$/.exec(trimmed);
    if (!match) throw new Error(`Dockerfile:${start}: cannot read "${trimmed}"`);
    const keyword = match[1]!.toUpperCase();
    if (!known.has(keyword)) throw new Error(`Dockerfile:${start}: ${keyword} is not emulated: extend test/ship/dockerfile.ts`);
    let args = match[2]!;
    const flags: Record<string, string> = {};
    for (let flag = /^--([\w-]+)=(\S+)\s+/.exec(args); flag; flag = /^--([\w-]+)=(\S+)\s+/.exec(args)) {
      flags[flag[1]!] = flag[2]!;
      args = args.slice(flag[0].length);
    }
    if (keyword === 'ARG' && stages.length === 0) {
      const [name, value = ''] = args.split('=');
      globalArgs.set(name!, value);
      continue;
    }
    if (keyword === 'FROM') {
      const [image, as, name] = args.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a?: string, b?: string) => globalArgs.get((a ?? b)!) ?? '').split(/\s+/);
      stages.push({ base: image!, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile:${start}: ${keyword} before FROM`);
    stage.instructions.push({ keyword, flags, args, line: start });
  }
  return stages;
}

/** What the last stage makes: its root directory and how its container starts. */
export interface Image {
  base: string;
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string | undefined;
  entrypoint: string[];
  cmd: string[];
}

/**
 * Builds `stages` from the build context `context` (filtered by its .dockerignore) into
 * directories under `work`. RUN steps get `runEnv` and the stage's ENV.
 */
export async function buildStages(stages: Stage[], context: string, ignore: string[], work: string, runEnv: Record<string, string>): Promise<Image> {
  const roots = new Map<string, string>();
  let image: Image | undefined;
  for (const [index, stage] of stages.entries()) {
    const root = join(work, `stage-${index}`);
    await mkdir(root, { recursive: true });
    image = { base: stage.base, root, workdir: '/', env: {}, user: undefined, entrypoint: [], cmd: [] };
    for (const step of stage.instructions) {
      const where = `Dockerfile:${step.line}: ${step.keyword} ${step.args}`;
      switch (step.keyword) {
        case 'WORKDIR':
          image.workdir = posix.resolve(image.workdir, step.args);
          await mkdir(join(root, image.workdir), { recursive: true });
          break;
        case 'ENV': {
          const [name, ...value] = step.args.split('=');
          image.env[name!] = value.join('=');
          break;
        }
        case 'USER':
          image.user = step.args;
          break;
        case 'ENTRYPOINT':
        case 'CMD': {
          const command = JSON.parse(step.args) as string[];
          if (step.keyword === 'ENTRYPOINT') image.entrypoint = command;
          else image.cmd = command;
          break;
        }
        case 'COPY': {
          const parts = step.args.split(/\s+/);
          const dest = posix.resolve(image.workdir, parts.pop()!);
          const from = step.flags.from;
          const fromRoot = from === undefined ? undefined : roots.get(from);
          if (from !== undefined && !fromRoot) throw new Error(`${where}: no stage ${from}`);
          for (const source of parts) {
            const path = fromRoot ? join(fromRoot, source) : join(context, source);
            if (!fromRoot && isIgnored(source.replace(/\/$/, ''), ignore)) throw new Error(`${where}: ${source} is excluded by .dockerignore`);
            const isDir = (await stat(path)).isDirectory();
            const target = isDir || !(step.args.trim().endsWith('/') || parts.length > 1) ? join(root, dest) : join(root, dest, posix.basename(source));
            await cp(path, target, {
              recursive: true,
              verbatimSymlinks: true,
              filter: (file) => fromRoot !== undefined || !isIgnored(posix.relative(context, file), ignore),
            });
          }
          break;
        }
        case 'RUN': {
          const run = await execa('sh', ['-c', step.args], {
            cwd: join(root, image.workdir),
            env: { ...runEnv, ...image.env },
            extendEnv: false,
            reject: false,
            all: true,
          });
          if (run.exitCode !== 0) throw new Error(`${where} failed (exit ${run.exitCode}):\n${run.all}`);
          break;
        }
        default:
          throw new Error(`${where}: not emulated`);
      }
    }
    if (stage.name) roots.set(stage.name, root);
  }
  if (!image) throw new Error('the Dockerfile has no FROM');
  return image;
}

/** The patterns of a .dockerignore file, in order (later ones win; `!` re-includes). */
export function parseDockerignore(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.replace(/\/+$/, ''));
}

/** Whether `path` (relative to the context, `/`-separated) is excluded: by itself or by one of its parent directories. */
export function isIgnored(path: string, patterns: string[]): boolean {
  if (!path) return false;
  let ignored = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const regex = globRegex(negated ? pattern.slice(1) : pattern);
    const segments = path.split('/');
    const matches = segments.some((_, i) => regex.test(segments.slice(0, i + 1).join('/')));
    if (matches) ignored = !negated;
  }
  return ignored;
}

function globRegex(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((part) => (part === '**' ? '.*' : part.replace(/[.+^$()|[\]{}\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The names of the packages installed in a node_modules directory, scoped ones as `@scope/name`. */
export async function installedPackages(nodeModules: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(nodeModules, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) {
      for (const scoped of await readdir(join(nodeModules, entry.name))) names.push(`${entry.name}/${scoped}`);
    } else {
      names.push(entry.name);
    }
  }
  return names.sort();
}
